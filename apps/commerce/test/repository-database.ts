import { randomUUID } from 'node:crypto';
import { serviceDataSourceOptions, sql } from '@tinkerdesk/persistence';
import { RepositoryDatabase } from '@tinkerdesk/testing';
import { dataSourceOptions } from '../src/database/data-source.js';
import { OrdersRepository } from '../src/orders/orders.repository.js';
import { ProviderServicesRepository } from '../src/services/provider-services.repository.js';

/** A throwaway commerce database for a repository's medium test (migrated, no service started). */
export function commerceDatabase(): Promise<RepositoryDatabase> {
  return RepositoryDatabase.create((url) => serviceDataSourceOptions(dataSourceOptions(url)));
}

/** A seller's service (products, orders, requests and plans refer to one); answers its id. */
export async function insertService(db: RepositoryDatabase, userId: string = randomUUID()): Promise<string> {
  const id = randomUUID();
  await new ProviderServicesRepository(db.dataSource).save({
    id,
    userId,
    name: 'Shop',
    displayName: 'Shop',
    provider: 'stripe',
    vendor: 'Stripe',
    account: 'acct_1',
    extras: {},
  });
  return id;
}

type NewOrder = Parameters<OrdersRepository['insertOrder']>[0];

/** A pending order's fields (a digital product of 12.50 USD), with `fields` over them. */
export function newOrder(fields: Pick<NewOrder, 'serviceId' | 'sellerId'> & Partial<NewOrder>): NewOrder {
  return {
    id: randomUUID(),
    productId: null,
    buyerId: randomUUID(),
    email: 'buyer@example.test',
    note: '',
    share: false,
    state: 'pending',
    provider: 'stripe',
    account: 'acct_1',
    vendor: 'digital',
    items: [{ productId: null, name: 'Poster', description: 'A1', unitPrice: 1250, quantity: 1, amount: 1250 }],
    amount: 1250,
    currency: 'USD',
    shipping: null,
    ...fields,
  };
}

/** A pending order (payment sessions, receipts, late payments and requests refer to one); answers its id. */
export async function insertOrder(db: RepositoryDatabase, fields: Parameters<typeof newOrder>[0]): Promise<string> {
  return (await new OrdersRepository(db.dataSource).insertOrder(newOrder(fields))).id;
}

/** How many events the outbox holds about one aggregate (repositories record them with the change). */
export async function outboxCount(db: RepositoryDatabase, aggregateId: string): Promise<number> {
  const row = await sql.one<{ n: number }>(
    db.dataSource,
    `SELECT count(*)::int AS n FROM "commerce"."outbox_event" WHERE "aggregate_id" = $1`,
    [aggregateId],
  );
  return row.n;
}
