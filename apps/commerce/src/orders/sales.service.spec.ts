import { describe, expect, it } from '@jest/globals';
import { AppError, type ServiceView } from '@tinkerdesk/contracts';
import type { ProviderServicesService } from '../services/provider-services.service.js';
import type { SalesRepository, SellerFigures, SellerOrdersQuery } from './sales.repository.js';
import { SalesService } from './sales.service.js';

/** The rules of SalesService with its repository and the services feature faked. */
const SELLER = '11111111-1111-4111-8111-111111111111';
const SERVICE = '44444444-4444-4444-8444-444444444444';
const NOW = new Date('2026-03-01T03:00:00Z');

function build() {
  const asked: { figures: Array<{ timeZone: string; since?: Date }>; pages: SellerOrdersQuery[] } = { figures: [], pages: [] };
  const figures: SellerFigures = {
    monthStart: new Date('2026-03-01T00:00:00Z'),
    earnings: [{ currency: 'USD', month: { gross: 3500, refunds: 500, orders: 3 }, allTime: { gross: 6500, refunds: 500, orders: 4 } }],
    seenAt: null,
    newOrders: 2,
  };
  const repository = {
    figures: (_seller: string, timeZone: string, _now: Date, since?: Date) => {
      asked.figures.push({ timeZone, ...(since ? { since } : {}) });
      return Promise.resolve(figures);
    },
    sellerOrders: (query: SellerOrdersQuery) => {
      asked.pages.push(query);
      return Promise.resolve({ total: 0, rows: [] });
    },
  } as unknown as SalesRepository; // only the methods SalesService calls
  const services = {
    listForUser: () => Promise.resolve([{ id: SERVICE, name: 'Posters' } as ServiceView]),
  } as unknown as ProviderServicesService; // only listForUser
  return { service: new SalesService(repository, services, () => NOW), asked };
}

describe('overview', () => {
  it('counts in UTC, and says so, when the profile gives no zone or one that is not known', async () => {
    const { service, asked } = build();
    await expect(service.overview({ sellerId: SELLER })).resolves.toMatchObject({ timeZone: 'UTC', profileTimeZone: false });
    await expect(service.overview({ sellerId: SELLER, timeZone: 'Mars/Olympus' })).resolves.toMatchObject({
      timeZone: 'UTC',
      profileTimeZone: false,
    });
    await expect(service.overview({ sellerId: SELLER, timeZone: 'europe/paris' })).resolves.toMatchObject({
      timeZone: 'Europe/Paris',
      profileTimeZone: true,
    });
    expect(asked.figures.map((f) => f.timeZone)).toEqual(['UTC', 'UTC', 'Europe/Paris']);
  });

  it('answers net as gross minus refunds, and asks for the orders to fulfil oldest paid first', async () => {
    const { service, asked } = build();
    const view = await service.overview({ sellerId: SELLER, since: '2026-02-01T00:00:00Z' });
    expect(view.earnings).toEqual([
      {
        currency: 'USD',
        month: { gross: 3500, refunds: 500, net: 3000, orders: 3 },
        allTime: { gross: 6500, refunds: 500, net: 6000, orders: 4 },
      },
    ]);
    expect(view).toMatchObject({ monthStart: '2026-03-01T00:00:00.000Z', seenAt: null, newOrders: 2, toFulfil: { total: 0, orders: [] } });
    expect(asked.figures[0]?.since).toEqual(new Date('2026-02-01T00:00:00Z'));
    expect(asked.pages).toEqual([{ sellerId: SELLER, states: ['paid'], order: 'oldest_paid', offset: 0, limit: 10 }]);
  });
});

describe('orders', () => {
  it("answers another seller's service like a missing one, before reading orders", async () => {
    const { service, asked } = build();
    await expect(service.orders({ sellerId: SELLER, serviceId: '55555555-5555-4555-8555-555555555555' })).rejects.toEqual(
      new AppError('NOT_FOUND', 'no such service'),
    );
    expect(asked.pages).toEqual([]);
  });

  it('turns a filter into its states and passes the service and the search', async () => {
    const { service, asked } = build();
    await expect(
      service.orders({ sellerId: SELLER, filter: 'unpaid', serviceId: SERVICE, q: 'R-2026', offset: 20, limit: 10 }),
    ).resolves.toEqual({
      orders: [],
      total: 0,
      offset: 20,
      limit: 10,
    });
    expect(asked.pages).toEqual([
      { sellerId: SELLER, states: ['pending', 'failed'], serviceId: SERVICE, search: 'R-2026', order: 'newest', offset: 20, limit: 10 },
    ]);
  });
});
