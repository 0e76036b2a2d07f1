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
