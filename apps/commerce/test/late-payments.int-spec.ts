import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppError, type CommerceDomainEvent, type SendMailMessage } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import { serviceDataSourceOptions } from '@tinkerdesk/persistence';
import { TestPlatform } from '@tinkerdesk/testing';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source.js';
import { CommerceReactions } from '../src/events/commerce-reactions.js';
import type { IdentityDirectory } from '../src/notify/identity-directory.js';
import { OrdersRepository } from '../src/orders/orders.repository.js';
import { OrdersService } from '../src/orders/orders.service.js';
import type { PaymentProvider, PaymentProviders } from '../src/payments/payment-provider.js';
import { PendingMailRepository } from '../src/events/pending-mail.repository.js';
import type { ProductsService } from '../src/products/products.service.js';
import { ProviderServicesRepository } from '../src/services/provider-services.repository.js';
import { ProviderServicesService } from '../src/services/provider-services.service.js';
import type { TimelineEntry, TimelineService } from '../src/timeline/timeline.service.js';

/**
 * Late payments against the real PostgreSQL: recorded once per payment, leased by one replica at a
 * time for their refund, marked refunded once; and OrdersService's automatic refund retried after the
 * provider refused it (the provider faked, the repository real).
 */
let platform: TestPlatform;
let db: DataSource;
let repository: OrdersRepository;
const sellerId = randomUUID();
const serviceId = randomUUID();

const silent = { error: () => undefined, warn: () => undefined, info: () => undefined } as unknown as Logger;

/** A cancelled order with one payment session, written as commerce writes them. */
async function cancelledOrder(): Promise<{ orderId: string; sessionId: string }> {
  const orderId = randomUUID();
  const sessionId = `sbs_${randomUUID()}`;
  await db.query(
    `INSERT INTO "commerce"."order" ("id", "service_id", "seller_id", "email", "state", "provider", "account", "vendor", "items", "amount", "currency")
     VALUES ($1, $2, $3, 'buyer@example.com', 'cancelled', 'sandbox', 'sandbox_late', 'digital', '[{"name":"Print","productId":null,"description":"","unitPrice":700,"quantity":1,"amount":700}]', 700, 'USD')`,
    [orderId, serviceId, sellerId],
  );
  await db.query(
    `INSERT INTO "commerce"."payment_session" ("id", "order_id", "provider", "account", "url", "status", "amount") VALUES ($1, $2, 'sandbox', 'sandbox_late', 'http://x', 'expired', 700)`,
    [sessionId, orderId],
  );
  return { orderId, sessionId };
}

/** Lets the next lease take every pending row (as if their last try were long ago). */
const ageLeases = () => db.query(`UPDATE "commerce"."late_payment" SET "attempt_at" = now() - interval '1 hour'`);

beforeAll(async () => {
  platform = await TestPlatform.start([]);
  db = new DataSource(serviceDataSourceOptions(dataSourceOptions(platform.env.DATABASE_URL!)));
  await db.initialize();
  repository = new OrdersRepository(db);
  await db.query(
    `INSERT INTO "commerce"."service" ("id", "user_id", "name", "display_name", "provider", "vendor", "account") VALUES ($1, $2, 'Late shop', 'Late shop', 'sandbox', 'digital', 'sandbox_late')`,
    [serviceId, sellerId],
  );
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await platform?.close();
});

describe('the late_payment table', () => {
  it('records a payment once, leases it to one replica at a time, and marks it refunded once', async () => {
    const { orderId, sessionId } = await cancelledOrder();
    const row = { provider: 'sandbox' as const, paymentId: `pi_${randomUUID()}`, orderId, sessionId, account: 'sandbox_late', amount: 700 };
    expect(await repository.inTransaction((tx) => tx.recordLatePayment(row))).toBe(true);
    expect(await repository.inTransaction((tx) => tx.recordLatePayment(row))).toBe(false);
    // Just recorded: the request that recorded it refunds it; no lease takes it yet.
    expect(await repository.leaseLateRefunds(60, 10)).toEqual([]);
    await ageLeases();
    const [first, second] = await Promise.all([repository.leaseLateRefunds(60, 10), repository.leaseLateRefunds(60, 10)]);
    const leased = [...first!, ...second!].filter((l) => l.orderId === orderId);
    expect(leased).toHaveLength(1);
    expect(leased[0]).toMatchObject({ state: 'refund_pending', attempts: 1, amount: 700 });
    expect(await repository.leaseLateRefunds(60, 10)).toEqual([]);
    expect(await repository.markLateRefunded('sandbox', row.paymentId)).toMatchObject({ state: 'refunded', orderId });
    expect(await repository.markLateRefunded('sandbox', row.paymentId)).toBeNull();
    await ageLeases();
    expect((await repository.leaseLateRefunds(60, 10)).filter((l) => l.orderId === orderId)).toEqual([]);
    expect(await repository.latePayments(orderId)).toMatchObject([{ state: 'refunded', amount: 700 }]);
  });
});

describe('OrdersService: a payment for a cancelled order', () => {
  it('is refunded automatically; a refund the provider refused is retried until it goes through, once', async () => {
    const refunds: string[] = [];
    let refuse = 1;
    const provider = {
      id: 'sandbox',
      refund: (paymentId: string) => {
        if (refuse-- > 0) return Promise.reject(new AppError('UPSTREAM_ERROR', 'the provider is down'));
        refunds.push(paymentId);
        return Promise.resolve({ id: `re_${refunds.length}` });
      },
    } as unknown as PaymentProvider;
    const mails: SendMailMessage[] = [];
    const timeline: TimelineEntry[] = [];
    const identity = {
      mail: (m: SendMailMessage) => Promise.resolve(void mails.push(m)),
      send: (m: SendMailMessage) => Promise.resolve(void mails.push(m)),
      publicName: () => Promise.resolve('Seller'),
    } as unknown as IdentityDirectory;
    const timelineService = {
      record: (...e: TimelineEntry[]) => Promise.resolve(void timeline.push(...e)),
      write: (_m: unknown, e: TimelineEntry[]) => Promise.resolve(void timeline.push(...e)),
    } as unknown as TimelineService;
    const orders = new OrdersService(
      repository,
      new ProviderServicesService(new ProviderServicesRepository(db), { sandbox: provider, stripe: provider } as PaymentProviders),
      {} as ProductsService,
      { sandbox: provider, stripe: provider } as PaymentProviders,
      identity,
      { publicUrl: 'http://shop.test' },
      silent,
    );
    // What the outbox listeners do after commit: the order's recorded events, each once, to the reactions.
    const reactions = new CommerceReactions(identity, timelineService, new PendingMailRepository(db), { publicUrl: 'http://shop.test' });
    const handled = new Set<string>();
    const react = async (orderId: string) => {
      const events = (await db.query(
        `SELECT "id", "name", "aggregate_type" AS "aggregateType", "aggregate_id" AS "aggregateId", "payload", "created_at" AS "createdAt"
           FROM "commerce"."outbox_event" WHERE "aggregate_id" = $1 ORDER BY "seq"`,
        [orderId],
      )) as CommerceDomainEvent[];
      for (const event of events.filter((e) => !handled.has(e.id))) {
        handled.add(event.id);
        await reactions.toTimeline(event, null);
        await reactions.toMail(event);
      }
    };
    const { orderId, sessionId } = await cancelledOrder();
    const paymentId = `pi_${randomUUID()}`;
    const event = { provider: 'sandbox' as const, id: `${sessionId}:paid`, type: 'paid' };
    expect(await orders.applyPaid(orderId, { sessionId, paymentId, amount: 700, event })).toBe(false);
    expect(refunds).toEqual([]);
    expect(await repository.latePayments(orderId)).toMatchObject([
      { state: 'refund_pending', lastError: expect.stringContaining('the provider is down') },
    ]);
    expect(await orders.retryLateRefunds(60)).toBe(0);
    await ageLeases();
    expect(await orders.retryLateRefunds(60)).toBe(1);
    expect(refunds).toEqual([paymentId]);
    expect(await repository.latePayments(orderId)).toMatchObject([{ state: 'refunded', amount: 700, lastError: null }]);
    // The same payment told again (a replayed event, the browser's return) refunds nothing more.
    expect(await orders.applyPaid(orderId, { sessionId, paymentId, amount: 700 })).toBe(false);
    await ageLeases();
    await orders.retryLateRefunds(60);
    expect(refunds).toEqual([paymentId]);
    await react(orderId);
    // A guest buyer has no timeline (its entry has no account); the seller's has the refund.
    expect(timeline.filter((e) => e.kind === 'order.late_refund').map((e) => e.userId)).toEqual([null, sellerId]);
    expect(mails.map((m) => m.to ?? m.toUserId)).toEqual(['buyer@example.com', sellerId]);
    const [order] = (await db.query(`SELECT "state", "payment_id" FROM "commerce"."order" WHERE "id" = $1`, [orderId])) as Array<{
      state: string;
      payment_id: string | null;
    }>;
    expect(order).toEqual({ state: 'cancelled', payment_id: null });
  });
});
