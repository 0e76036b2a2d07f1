import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Handles } from '@tinkerdesk/nest-common';
import { SUBJECTS, UserServicesMessage, type ServiceView } from '@tinkerdesk/contracts';
import { ProviderServicesService } from './provider-services.service.js';

/** NATS handlers: translate only. */
@Controller()
export class ProviderServicesController {
  constructor(private readonly services: ProviderServicesService) {}

  @Handles(SUBJECTS.commerce.serviceList)
  list(@Payload() input: UserServicesMessage): Promise<ServiceView[]> {
    return this.services.listForUser(input.userId);
  }
}
