import { Inject, Injectable } from '@nestjs/common';
import { AppError, type PaymentProviderId, type StorefrontView, type Vendor } from '@tinkerdesk/contracts';
import { IdentityDirectory } from '../notify/identity-directory.js';
import { ProductsService } from './products.service.js';

/** A provider's public page: the service (never its payment account), the seller's display name, the active products. */
@Injectable()
export class StorefrontService {
  constructor(
    @Inject(ProductsService) private readonly products: ProductsService,
    @Inject(IdentityDirectory) private readonly identity: IdentityDirectory,
  ) {}

  async get(userId: string, serviceId: string): Promise<StorefrontView> {
    const service = await this.products.serviceOf(userId, serviceId);
    const [account, products] = await Promise.all([
      this.identity.publicName(userId),
      this.products.list(userId, serviceId, undefined, undefined),
    ]);
    // A closed account's page is gone, like a missing one.
    if (account === null) throw new AppError('NOT_FOUND', 'no such service');
    const supportEmail = typeof service.extras.supportEmail === 'string' ? service.extras.supportEmail : null;
    return {
      service: {
        id: service.id,
        userId: service.userId,
        name: service.name,
        vendor: service.vendor as Vendor,
        provider: service.provider as PaymentProviderId,
        supportEmail,
      },
      // The name the seller chose for buyers (selling setup), never the account's profile name.
      seller: { guid: userId, name: service.displayName },
      products,
    };
  }
}
