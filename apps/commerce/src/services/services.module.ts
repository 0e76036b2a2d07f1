import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module.js';
import { ProviderServicesController } from './provider-services.controller.js';
import { ProviderServicesRepository } from './provider-services.repository.js';
import { ProviderServicesService } from './provider-services.service.js';

/** Sellers' services (the `service` table): exports ProviderServicesService. */
@Module({
  imports: [PaymentsModule],
  controllers: [ProviderServicesController],
  providers: [ProviderServicesRepository, ProviderServicesService],
  exports: [ProviderServicesService],
})
export class ServicesModule {}
