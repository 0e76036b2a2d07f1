import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ServiceView } from '@tinkerdesk/contracts';
import { DataSource } from 'typeorm';
import type { ProviderServiceEntity } from './provider-service.entity.js';
import { ProviderServicesRepository } from './provider-services.repository.js';

/** The view of spec section 3: name, provider, vendor, account, then the provider-specific extras. */
export function toServiceView(service: ProviderServiceEntity): ServiceView {
  return {
    ...service.extras,
    id: service.id,
    name: service.name,
    provider: service.provider,
    vendor: service.vendor,
    account: service.account,
    created: service.created.toISOString(),
    modified: service.modified.toISOString(),
  };
}

@Injectable()
export class ProviderServicesService {
  private readonly repository: ProviderServicesRepository;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.repository = new ProviderServicesRepository(dataSource);
  }

  async listForUser(userId: string): Promise<ServiceView[]> {
    return (await this.repository.listByUser(userId)).map(toServiceView);
  }
}
