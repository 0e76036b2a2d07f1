import { describe, expect, it } from '@jest/globals';
import type { ProviderServiceEntity } from './provider-service.entity.js';
import type { ProviderServicesRepository } from './provider-services.repository.js';
import { ProviderServicesService } from './provider-services.service.js';
import type { PaymentProviders } from '../payments/payment-provider.js';

/** The rules of ProviderServicesService with its repository faked. */

const OWNER = '6f1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b40';
const OTHER = '0b1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b41';

class FakeServices {
  rows: ProviderServiceEntity[] = [];
  asked: string[] = [];
  slugsAsked: string[] = [];
  find(id: string): Promise<ProviderServiceEntity | null> {
    return Promise.resolve(this.rows.find((r) => r.id === id) ?? null);
  }
  findBySlug(slug: string): Promise<ProviderServiceEntity | null> {
    this.slugsAsked.push(slug);
    return Promise.resolve(this.rows.find((r) => r.slug === slug) ?? null);
  }
  save(service: Omit<ProviderServiceEntity, 'created' | 'modified'>): Promise<ProviderServiceEntity> {
    const saved = { ...service, created: new Date('2026-01-02T03:04:05Z'), modified: new Date('2026-01-04T03:04:05Z') };
    this.rows = [...this.rows.filter((r) => r.id !== service.id), saved];
    return Promise.resolve(saved);
  }
  saveOnce(service: Omit<ProviderServiceEntity, 'created' | 'modified'>): Promise<ProviderServiceEntity> {
    return this.save(service);
  }
  replayed(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }
  listByUser(userId: string): Promise<ProviderServiceEntity[]> {
    this.asked.push(userId);
    return Promise.resolve(this.rows.filter((r) => r.userId === userId));
  }
}

function row(fields: Partial<ProviderServiceEntity>): ProviderServiceEntity {
  return {
    id: 'a1b2c3d4-0000-4000-8000-000000000001',
    userId: OWNER,
    name: 'Shop',
    displayName: 'Ada Lovelace',
    provider: 'stripe',
    vendor: 'Stripe',
    account: 'acct_1',
    slug: null,
    extras: {},
    created: new Date('2026-01-02T03:04:05Z'),
    modified: new Date('2026-01-03T03:04:05Z'),
    ...fields,
  };
}

function setup() {
  const services = new FakeServices();
  return { services, service: new ProviderServicesService(services as unknown as ProviderServicesRepository, {} as PaymentProviders) };
}

describe('listForUser', () => {
  it("answers nothing for a user without services, and never another user's", async () => {
    const { services, service } = setup();
    services.rows.push(row({ userId: OTHER }));
    expect(await service.listForUser(OWNER)).toEqual([]);
    expect(services.asked).toEqual([OWNER]);
  });

  it('answers the service view: the fields, dates as ISO text, and the provider-specific extras', async () => {
    const { services, service } = setup();
    services.rows.push(row({ extras: { terminals: 2, currency: 'EUR' } }));
    expect(await service.listForUser(OWNER)).toEqual([
      {
        id: 'a1b2c3d4-0000-4000-8000-000000000001',
        name: 'Shop',
        displayName: 'Ada Lovelace',
        provider: 'stripe',
        vendor: 'Stripe',
        account: 'acct_1',
        slug: null,
        created: '2026-01-02T03:04:05.000Z',
        modified: '2026-01-03T03:04:05.000Z',
        terminals: 2,
        currency: 'EUR',
      },
    ]);
  });

  it('never lets an extra override a field of the view', async () => {
    const { services, service } = setup();
    services.rows.push(row({ extras: { id: 'forged', account: 'someone else', created: 'yesterday' } }));
    const [view] = await service.listForUser(OWNER);
    expect(view).toMatchObject({ id: 'a1b2c3d4-0000-4000-8000-000000000001', account: 'acct_1', created: '2026-01-02T03:04:05.000Z' });
  });
});

const body = {
  userId: OWNER,
  name: 'Shop',
  displayName: '  Riso Corner  ',
  provider: 'stripe' as const,
  vendor: 'digital' as const,
  account: 'acct_1',
};

describe('save: the name buyers see', () => {
  it('keeps the display name trimmed, and changes it when the seller edits it', async () => {
    const { services, service } = setup();
    services.rows.push(row({}));
    const serviceId = 'a1b2c3d4-0000-4000-8000-000000000001';
    expect((await service.save({ ...body, serviceId })).displayName).toBe('Riso Corner');
    expect((await service.save({ ...body, serviceId, displayName: 'Riso Prints' })).displayName).toBe('Riso Prints');
    expect(services.rows[0]?.displayName).toBe('Riso Prints');
  });
});

describe('save: the shop link', () => {
  it('keeps the slug when the update leaves it out, changes it when given, removes it with null', async () => {
    const { services, service } = setup();
    services.rows.push(row({ slug: 'riso-corner' }));
    const serviceId = 'a1b2c3d4-0000-4000-8000-000000000001';
    expect((await service.save({ ...body, serviceId, name: 'Renamed' })).slug).toBe('riso-corner');
    expect((await service.save({ ...body, serviceId, slug: 'riso-prints' })).slug).toBe('riso-prints');
    expect((await service.save({ ...body, serviceId, slug: null })).slug).toBeNull();
  });

  it("never touches another user's service, whatever the slug", async () => {
    const { services, service } = setup();
    services.rows.push(row({ userId: OTHER, slug: 'theirs' }));
    await expect(service.save({ ...body, serviceId: 'a1b2c3d4-0000-4000-8000-000000000001', slug: 'mine-now' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(services.rows[0]?.slug).toBe('theirs');
  });
});

describe('resolve', () => {
  it('answers the seller and service of a slug, whatever its case', async () => {
    const { services, service } = setup();
    services.rows.push(row({ slug: 'riso-corner' }));
    expect(await service.resolve({ slug: 'Riso-Corner' })).toEqual({ userId: OWNER, serviceId: 'a1b2c3d4-0000-4000-8000-000000000001' });
  });

  it('answers NOT_FOUND for an unknown slug, and for text that can never be one without asking the repository', async () => {
    const { services, service } = setup();
    await expect(service.resolve({ slug: 'nobody' })).rejects.toMatchObject({ code: 'NOT_FOUND', detail: 'no shop at this address' });
    for (const slug of ['admin', 'x', 'a b', '../..']) await expect(service.resolve({ slug })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(services.slugsAsked).toEqual(['nobody']);
  });
});
