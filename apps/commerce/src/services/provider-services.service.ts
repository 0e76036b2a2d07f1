import { Inject, Injectable } from '@nestjs/common';
import type { ServiceView } from '@tinkerdesk/contracts';
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
  constructor(@Inject(ProviderServicesRepository) private readonly repository: ProviderServicesRepository) {}

  async listForUser(userId: string): Promise<ServiceView[]> {
    return (await this.repository.listByUser(userId)).map(toServiceView);
  }
}
