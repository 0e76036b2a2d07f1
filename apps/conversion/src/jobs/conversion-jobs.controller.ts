import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Handles } from '@tinkerdesk/nest-common';
import { CreateConversionJobDto, GetConversionJobDto, SUBJECTS, type ConversionJobView } from '@tinkerdesk/contracts';
import { ConversionJobsService } from './conversion-jobs.service.js';

/** NATS handlers: translate only, the rules are in the service. */
@Controller()
export class ConversionJobsController {
  constructor(private readonly jobs: ConversionJobsService) {}

  @Handles(SUBJECTS.conversion.jobCreate)
  create(@Payload() input: CreateConversionJobDto): Promise<ConversionJobView> {
    return this.jobs.create(input);
  }

  @Handles(SUBJECTS.conversion.jobGet)
  get(@Payload() input: GetConversionJobDto): Promise<ConversionJobView> {
    return this.jobs.get(input.id);
  }
}
