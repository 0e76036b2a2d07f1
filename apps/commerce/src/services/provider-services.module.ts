import { Module } from '@nestjs/common';
import { ProviderServicesController } from './provider-services.controller.js';
import { ProviderServicesRepository } from './provider-services.repository.js';
import { ProviderServicesService } from './provider-services.service.js';

/** Provider services (spec section 3): NATS handlers, the rules and the repository. */
@Module({
  controllers: [ProviderServicesController],
  providers: [ProviderServicesRepository, ProviderServicesService],
})
export class ProviderServicesModule {}
