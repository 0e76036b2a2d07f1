import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CreateConversionJobMessage, ListJobsMessage, OwnedJobMessage, SUBJECTS, type RpcResponse } from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { ConversionJobsService } from './conversion-jobs.service.js';

/** NATS handlers: translate only, the rules are in the service. */
@Controller()
export class ConversionJobsController {
  constructor(@Inject(ConversionJobsService) private readonly jobs: ConversionJobsService) {}

  @Handles(SUBJECTS.conversion.jobCreate)
  create(@Payload() input: CreateConversionJobMessage): Promise<RpcResponse<typeof SUBJECTS.conversion.jobCreate>> {
    return this.jobs.create(input);
  }

  @Handles(SUBJECTS.conversion.engines)
  engines(): Promise<RpcResponse<typeof SUBJECTS.conversion.engines>> {
    return this.jobs.engineStatus();
  }

  @Handles(SUBJECTS.conversion.jobGet)
  get(@Payload() input: OwnedJobMessage): Promise<RpcResponse<typeof SUBJECTS.conversion.jobGet>> {
    return this.jobs.get(input.id, input.ownerId);
  }

  @Handles(SUBJECTS.conversion.jobList)
  list(@Payload() input: ListJobsMessage): Promise<RpcResponse<typeof SUBJECTS.conversion.jobList>> {
    return this.jobs.list(input.ownerId, input.offset, input.limit);
  }

  @Handles(SUBJECTS.conversion.jobDelete)
  delete(@Payload() input: OwnedJobMessage): Promise<RpcResponse<typeof SUBJECTS.conversion.jobDelete>> {
    return this.jobs.delete(input.id, input.ownerId);
  }
}
