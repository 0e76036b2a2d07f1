import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  shopSlugProblem,
  type AccountValidation,
  type ResolveShopMessage,
  type SaveServiceMessage,
  type ShopAddress,
  type ServiceView,
  type ValidateAccountDto,
} from '@tinkerdesk/contracts';
import { createUnderKey } from '@tinkerdesk/persistence';
import { PAYMENT_PROVIDERS_TOKEN, type PaymentProviders } from '../payments/payment-provider.js';
import type { ProviderServiceEntity } from './provider-service.entity.js';
import { ProviderServicesRepository } from './provider-services.repository.js';

/** A seller's service as the other features read it. */
export type ServiceRow = ProviderServiceEntity;

/** The service view (ServiceView in libs/contracts): name, provider, vendor, account, then the provider-specific extras. */
export function toServiceView(service: ProviderServiceEntity): ServiceView {
  return {
    ...service.extras,
    id: service.id,
    name: service.name,
    displayName: service.displayName,
    provider: service.provider,
    vendor: service.vendor,
    account: service.account,
    slug: service.slug ?? null,
    created: service.created.toISOString(),
    modified: service.modified.toISOString(),
  };
}

/** The extras a service keeps, checked per provider and vendor. */
export function serviceExtras(input: SaveServiceMessage): Record<string, unknown> {
  const extras: Record<string, unknown> = {};
  if (input.statementDescriptor !== undefined) {
    if (input.provider !== 'stripe') throw new AppError('VALIDATION_FAILED', 'statementDescriptor is only for the stripe provider');
    extras.statementDescriptor = input.statementDescriptor.trim();
  }
  if (input.supportEmail !== undefined) extras.supportEmail = input.supportEmail.trim().toLowerCase();
  if (input.vendor === 'mail') {
    if (!input.shippingOrigin)
      throw new AppError('VALIDATION_FAILED', 'a mail service needs shippingOrigin: the address printed mail is sent from');
    extras.shippingOrigin = { ...input.shippingOrigin };
  } else if (input.shippingOrigin !== undefined) {
    throw new AppError('VALIDATION_FAILED', `shippingOrigin is only for mail services (this one sells ${input.vendor})`);
  }
  return extras;
}

@Injectable()
export class ProviderServicesService {
  constructor(
    @Inject(ProviderServicesRepository) private readonly repository: ProviderServicesRepository,
    @Inject(PAYMENT_PROVIDERS_TOKEN) private readonly providers: PaymentProviders,
  ) {}

  /** A service by id (other features read services only through here). */
  find(id: string): Promise<ServiceRow | null> {
    return this.repository.find(id);
  }

  /** Who owns a service and what it sells (its userId and vendor), null for an unknown id. */
  owner(id: string): Promise<Pick<ServiceRow, 'userId' | 'vendor'> | null> {
    return this.repository.owner(id);
  }

  /** The services of these ids in one statement (unknown ids are left out): a page of orders names its services at once. */
  findMany(ids: readonly string[]): Promise<ServiceRow[]> {
    return this.repository.findMany(ids);
  }

  async listForUser(userId: string): Promise<ServiceView[]> {
    return (await this.repository.listByUser(userId)).map(toServiceView);
  }

  /** Asks the payment provider whether the account exists and can take charges. */
  validate(input: ValidateAccountDto): Promise<AccountValidation> {
    return this.providers[input.provider].validateAccount(input.account.trim());
  }

  /**
   * Creates or updates one of the user's services; the provider must accept the account first. A create
   * under an Idempotency-Key makes one service: a retry of one that succeeded answers it (the provider
   * not asked again); the same request alongside answers it too.
   */
  async save(input: SaveServiceMessage): Promise<ServiceView> {
    const idempotent = input.serviceId ? undefined : createUnderKey('service.create', input.userId, input);
    const earlier = await this.repository.replayed(idempotent);
    const first = earlier === undefined ? null : await this.repository.find(earlier);
    if (first?.userId === input.userId) return toServiceView(first);
    const existing = input.serviceId ? await this.repository.find(input.serviceId) : undefined;
    if (input.serviceId && (!existing || existing.userId !== input.userId)) throw new AppError('NOT_FOUND', 'no such service');
    const extras = serviceExtras(input);
    const account = input.account.trim();
    if (!existing || existing.account !== account || existing.provider !== input.provider) {
      const check = await this.validate({ provider: input.provider, account });
      if (!check.valid)
        throw new AppError('ACCOUNT_INVALID', `the ${input.provider} account ${account} cannot take charges: ${check.reason}`);
    }
    const saved = await this.repository.saveOnce(
      {
        id: existing?.id ?? randomUUID(),
        userId: input.userId,
        name: input.name.trim(),
        displayName: input.displayName.trim(),
        provider: input.provider,
        vendor: input.vendor,
        account,
        // Left out keeps the slug; null removes it. The old one is free at once (no redirect: docs/api.md#shop-links).
        slug: input.slug === undefined ? (existing?.slug ?? null) : input.slug,
        extras,
      },
      idempotent,
    );
    return toServiceView(saved);
  }

  /** The service a shop link names; an unknown or malformed slug answers NOT_FOUND. */
  async resolve(input: ResolveShopMessage): Promise<ShopAddress> {
    const slug = input.slug.toLowerCase();
    const service = shopSlugProblem(slug) === undefined ? await this.repository.findBySlug(slug) : null;
    if (!service) throw new AppError('NOT_FOUND', 'no shop at this address');
    return { userId: service.userId, serviceId: service.id };
  }
}
