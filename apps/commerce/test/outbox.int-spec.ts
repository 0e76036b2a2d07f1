import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { AppError, COMMERCE_EVENTS, SUBJECTS, type CommerceDomainEvent, type OrderSnapshot } from '@tinkerdesk/contracts';
import { createLogger, RpcClient } from '@tinkerdesk/nest-common';
import { OutboxListener, OutboxRelay, serviceDataSourceOptions, streamName, type OutboxEnvelope } from '@tinkerdesk/persistence';
import { startLoopbackSmtp, TestPlatform, type LoopbackSmtp } from '@tinkerdesk/testing';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source.js';
import { commerceEvent, COMMERCE_STREAM, recordCommerceEvents, type CommerceEventRecord } from '../src/events/commerce-events.js';
import { CommerceReactions } from '../src/events/commerce-reactions.js';
import { PendingMailRepository } from '../src/events/pending-mail.repository.js';
import { IdentityDirectory } from '../src/notify/identity-directory.js';
import { TimelineRepository } from '../src/timeline/timeline.repository.js';
import { TimelineService, type TimelineEntry } from '../src/timeline/timeline.service.js';
import { eventually } from './eventually.js';

/**
 * The outbox against the real PostgreSQL and NATS JetStream, with the commerce process itself:
 * events committed while the process is down (killed between commit and publish) are published
 * when it is back, and their email and timeline entries appear exactly once, also when an event was
 * published but not marked (killed between publish and mark); a listener that fails is retried
 * and writes once, and one that fails after sending its emails (killed between send and mark) mails
 * once; events of one aggregate arrive in order, also with two relays at once.
 */
let platform: TestPlatform;
let smtp: LoopbackSmtp;
let db: DataSource;
let rpc: RpcClient;
const logger = createLogger('outbox-test', 'silent');

/** A refund in full of an order, as its event carries it. */
const fullRefund = (o: OrderSnapshot) => ({
  order: o,
  refund: { id: randomUUID(), amount: o.amount, reason: null },
  refundedAmount: o.amount,
  fully: true,
  receipt: null,
});

const order = (email: string): OrderSnapshot => ({
  id: randomUUID(),
  sellerId: randomUUID(),
  buyerId: randomUUID(),
  email,
  share: false,
  note: '',
  items: [{ productId: null, name: 'Poster', description: '', unitPrice: 1500, quantity: 1, amount: 1500 }],
  amount: 1500,
  fulfilNote: null,
});

/** Commits events as a service does: in a transaction of their own here (the change itself is not the point). */
const commit = (...events: CommerceEventRecord[]) => db.transaction((m) => recordCommerceEvents(m, events));

const timelineOf = async (orderId: string) =>
  (await db.query(`SELECT "user_id", "kind" FROM "commerce"."timeline_event" WHERE "order_id" = $1 ORDER BY "user_id"`, [
    orderId,
  ])) as Array<{ user_id: string; kind: string }>;

const refundMails = (email: string) => smtp.inbox.filter((m) => m.to.includes(email) && /refunded in full/.test(m.text));

const unpublished = async (id: string) =>
  (
    (await db.query(`SELECT "published_at" FROM "commerce"."outbox_event" WHERE "id" = $1`, [id])) as Array<{ published_at: Date | null }>
  )[0]?.published_at === null;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  platform = await TestPlatform.start(['identity', 'commerce'], {
    PUBLIC_URL: 'http://shop.test',
    SMTP_URL: smtp.url,
    MAIL_RETRY_DELAY_MS: '100',
    OUTBOX_POLL_MS: '200',
  });
  db = new DataSource(serviceDataSourceOptions(dataSourceOptions(platform.env.DATABASE_URL!)));
  await db.initialize();
  rpc = await RpcClient.connect({
    natsUrl: platform.env.NATS_URL ?? 'nats://localhost:4222',
    prefix: platform.env.NATS_PREFIX ?? '',
    timeoutMs: 3000,
    name: 'outbox-test',
  });
}, 120_000);

afterAll(async () => {
  await rpc?.close();
  await db?.destroy();
  await platform?.close();
  await smtp?.close();
});

describe('the relay and the listeners of the commerce process', () => {
  it('publishes an event committed while the process was down, once: one email, one timeline entry per side', async () => {
    const refunded = order(`outbox-${randomUUID().slice(0, 8)}@example.com`);
    // Killed after the commit and before the publish: the event is in the outbox only.
    await platform.stopProcess('commerce', 'SIGKILL');
    await commit(commerceEvent(COMMERCE_EVENTS.orderRefunded, { type: 'order', id: refunded.id }, fullRefund(refunded)));
    await platform.startProcess('commerce');
    const entries = await eventually(
      () => timelineOf(refunded.id),
      (rows) => rows.length === 2,
    );
    expect(entries.map((e) => e.kind)).toEqual(['order.refunded', 'order.refunded']);
    expect(await smtp.mailTo(refunded.email, /refunded in full/)).toContain('Refund of your order Poster');
    const [event] = (await db.query(`SELECT "id", "published_at", "attempts" FROM "commerce"."outbox_event" WHERE "aggregate_id" = $1`, [
      refunded.id,
    ])) as Array<{ id: string; published_at: Date | null; attempts: number }>;
    expect(event?.published_at).not.toBeNull();

    // Killed after the publish and before the mark: published again after the restart, handled once.
    await platform.stopProcess('commerce', 'SIGKILL');
    await db.query(`UPDATE "commerce"."outbox_event" SET "published_at" = NULL WHERE "id" = $1`, [event!.id]);
    await platform.startProcess('commerce');
    await eventually(
      () => unpublished(event!.id),
      (still) => !still,
    );
    // A later event of another order, handled after the republished one (one at a time, in order):
    // once it shows, the first had every chance to be handled twice.
    const later = order(`outbox-${randomUUID().slice(0, 8)}@example.com`);
    await commit(commerceEvent(COMMERCE_EVENTS.orderRefunded, { type: 'order', id: later.id }, fullRefund(later)));
    await eventually(
      async () => refundMails(later.email).length,
      (n) => n === 1,
    );
    expect(await timelineOf(refunded.id)).toHaveLength(2);
    expect(refundMails(refunded.email)).toHaveLength(1);
    // Each listener handled the event once (the live listener may finish a moment after the others).
    const processed = await eventually(
      async () =>
        (await db.query(`SELECT "listener" FROM "commerce"."processed_event" WHERE "event_id" = $1 ORDER BY "listener"`, [
          event!.id,
        ])) as Array<{
          listener: string;
        }>,
      (rows) => rows.length >= 3,
    );
    expect(processed.map((p) => p.listener)).toEqual(['commerce-live', 'commerce-mail', 'commerce-timeline']);
  }, 60_000);
});

describe('the flows moved onto the outbox (placed, request sent and accepted, plan created and cancelled, cards)', () => {
  const kindsOf = async (userId: string) =>
    (
      (await db.query(`SELECT "kind", "title" FROM "commerce"."timeline_event" WHERE "user_id" = $1 ORDER BY "kind", "title"`, [
        userId,
      ])) as Array<{
        kind: string;
        title: string;
      }>
    ).map((r) => `${r.kind}: ${r.title}`);

  it('committed while the process was down: each timeline entry and email once, the secret email from pending_mail (then deleted)', async () => {
    const buyer = randomUUID();
    // The seller's emails go to their account (toUserId): a real one, at identity.
    const sellerEmail = `seller-${randomUUID().slice(0, 8)}@example.com`;
    const account = await rpc.send(SUBJECTS.identity.userCreate, { email: sellerEmail, password: 'outbox seller password' });
    const seller = account.profile.guid;
    const payer = `payer-${randomUUID().slice(0, 8)}@example.com`;
    const placed = { ...order(`buyer-${randomUUID().slice(0, 8)}@example.com`), buyerId: buyer, sellerId: seller };
    const request = { id: randomUUID(), sellerId: seller, email: payer, productName: 'Poster', price: 1500 };
    const plan = { id: randomUUID(), payerId: buyer, sellerId: seller, productName: 'Lesson', price: 2500, timeZone: 'UTC' };
    const card = { id: randomUUID(), userId: buyer, brand: 'visa', last4: '4242' };
    const secret = {
      to: payer,
      subject: 'Ada asks you to pay $15.00 for Poster',
      text: `Accept and pay here:\nhttp://shop.test/requests/${request.id}?key=SECRET\n`,
    };
    await platform.stopProcess('commerce', 'SIGKILL');
    await commit(
      commerceEvent(COMMERCE_EVENTS.orderPlaced, { type: 'order', id: placed.id }, { order: placed }),
      commerceEvent(COMMERCE_EVENTS.requestSent, { type: 'request', id: request.id }, { request, payerId: buyer, from: 'Ada' }, secret),
      commerceEvent(COMMERCE_EVENTS.requestAccepted, { type: 'request', id: request.id }, { request, orderId: placed.id, payerId: buyer }),
      commerceEvent(COMMERCE_EVENTS.planCreated, { type: 'plan', id: plan.id }, { plan, interval: 'month' }),
      commerceEvent(COMMERCE_EVENTS.planCancelled, { type: 'plan', id: plan.id }, { plan, by: 'payer' }),
      commerceEvent(COMMERCE_EVENTS.methodAdded, { type: 'method', id: card.id }, { method: card }),
      commerceEvent(COMMERCE_EVENTS.methodDefaultChanged, { type: 'method', id: card.id }, { method: card }),
      commerceEvent(COMMERCE_EVENTS.methodRemoved, { type: 'method', id: card.id }, { method: card, movedPlans: 2 }),
    );
    // The stream never carries the secret.
    const payloads = (await db.query(`SELECT "payload" FROM "commerce"."outbox_event" WHERE "aggregate_id" = $1`, [request.id])) as Array<{
      payload: unknown;
    }>;
    expect(JSON.stringify(payloads)).not.toContain('SECRET');
    await platform.startProcess('commerce');
    const buyerEntries = await eventually(
      () => kindsOf(buyer),
      (rows) => rows.length === 8,
    );
    expect(buyerEntries).toEqual([
      'method.added: You saved your Visa card ending 4242',
      'method.default: Your Visa card ending 4242 is now your default card',
      'method.removed: You removed your Visa card ending 4242; its 2 plans are paid with another card now',
      'order.placed: You ordered Poster ($15.00)',
      'plan.cancelled: You cancelled the plan for Lesson',
      'plan.created: You started a plan: $25.00 a month for Lesson',
      'request.accepted: You accepted to pay $15.00 for Poster',
      'request.received: Ada asks you to pay $15.00 for Poster',
    ]);
    expect(await kindsOf(seller)).toEqual([
      'order.received: New order: Poster ($15.00)',
      'plan.cancelled: The customer cancelled the plan for Lesson',
      'plan.subscribed: A customer started a plan: $25.00 a month for Lesson',
      `request.accepted: ${payer} accepted your request of $15.00 for Poster`,
      `request.sent: You asked ${payer} to pay $15.00 for Poster`,
    ]);
    expect(await smtp.mailTo(payer, /key=SECRET/)).toContain('Subject: Ada asks you to pay $15.00 for Poster');
    expect(await smtp.mailTo(sellerEmail, /accepted your request/)).toContain(
      `${payer} accepted your request of $15.00 for Poster; you will get an email when it is paid.`,
    );
    await eventually(
      async () =>
        (await db.query(
          `SELECT 1 FROM "commerce"."pending_mail" m JOIN "commerce"."outbox_event" e ON e."id" = m."event_id" WHERE e."aggregate_id" = $1`,
          [request.id],
        )) as unknown[],
      (rows) => rows.length === 0,
    );
    // A later event, handled after these (one at a time, in order): once its email shows, none came twice.
    const later = order(`outbox-${randomUUID().slice(0, 8)}@example.com`);
    await commit(commerceEvent(COMMERCE_EVENTS.orderRefunded, { type: 'order', id: later.id }, fullRefund(later)));
    await eventually(
      async () => refundMails(later.email).length,
      (n) => n === 1,
    );
    expect(smtp.inbox.filter((m) => m.to.includes(payer))).toHaveLength(1);
    expect(smtp.inbox.filter((m) => m.to.includes(sellerEmail) && /accepted your request/.test(m.text))).toHaveLength(1);
    expect(await kindsOf(buyer)).toHaveLength(8);
    expect(await kindsOf(seller)).toHaveLength(5);
  }, 60_000);
});

describe('listeners in this process (durable consumers of their own)', () => {
  const common = () => ({
    dataSource: db,
    schema: 'commerce',
    nc: rpc.connection,
    prefix: platform.env.NATS_PREFIX ?? '',
    stream: COMMERCE_STREAM,
    service: 'commerce',
    logger,
  });

  it('retries a listener that fails, and its writes land once', async () => {
    const real = new TimelineService(new TimelineRepository(db), logger);
    let failures = 2;
    // Writes its entries, then fails (twice): the transaction is rolled back with them.
    const flaky = {
      write: async (manager: never, entries: TimelineEntry[]) => {
        await real.write(manager, entries);
        if (failures-- > 0) throw new Error('the listener failed after writing');
      },
    } as unknown as TimelineService;
    const reactions = new CommerceReactions(new IdentityDirectory(rpc, logger), flaky, new PendingMailRepository(db), {
      publicUrl: 'http://shop.test',
    });
    const fulfilled = order('flaky@example.com');
    const listener = new OutboxListener<CommerceDomainEvent>({
      ...common(),
      name: `test-flaky-${randomUUID().slice(0, 8)}`,
      mode: 'transaction',
      retryMs: 50,
      handle: (event, manager) => (event.aggregateId === fulfilled.id ? reactions.toTimeline(event, manager) : Promise.resolve()),
    });
    await listener.start();
    try {
      await commit(commerceEvent(COMMERCE_EVENTS.orderFulfilled, { type: 'order', id: fulfilled.id }, { order: fulfilled }));
      await eventually(
        () => Promise.resolve(failures),
        (n) => n < 0,
      );
      // The commerce process's own timeline listener writes these entries too: two per listener.
      const rows = await eventually(
        () => timelineOf(fulfilled.id),
        (r) => r.length === 4,
      );
      expect(rows.map((r) => r.kind)).toEqual(Array(4).fill('order.fulfilled'));
      expect(failures).toBe(-1);
    } finally {
      await listener.stop();
    }
  }, 30_000);

  it('sets aside an event that fails permanently (an account gone) and goes on with the next ones', async () => {
    const gone = order('gone@example.com');
    const next = order('next@example.com');
    const calls: string[] = [];
    const name = `test-poison-${randomUUID().slice(0, 8)}`;
    const listener = new OutboxListener<CommerceDomainEvent>({
      ...common(),
      name,
      mode: 'effect',
      retryMs: 50,
      handle: (event) => {
        if (event.aggregateId === gone.id) {
          calls.push('gone');
          return Promise.reject(new AppError('NOT_FOUND', 'no such account'));
        }
        if (event.aggregateId === next.id) calls.push('next');
        return Promise.resolve();
      },
    });
    await listener.start();
    try {
      await commit(commerceEvent(COMMERCE_EVENTS.orderFulfilled, { type: 'order', id: gone.id }, { order: gone }));
      await commit(commerceEvent(COMMERCE_EVENTS.orderFulfilled, { type: 'order', id: next.id }, { order: next }));
      await eventually(
        () => Promise.resolve(calls),
        (c) => c.includes('next'),
      );
      // Handled once, not retried; marked processed so a redelivery skips it.
      expect(calls).toEqual(['gone', 'next']);
      const marked = (await db.query(
        `SELECT o."aggregate_id" FROM "commerce"."processed_event" p JOIN "commerce"."outbox_event" o ON o."id" = p."event_id"
          WHERE p."listener" = $1 AND o."aggregate_id" = ANY($2) ORDER BY o."aggregate_id"`,
        [name, [gone.id, next.id]],
      )) as Array<{ aggregate_id: string }>;
      expect(marked.map((r) => r.aggregate_id).sort()).toEqual([gone.id, next.id].sort());
    } finally {
      await listener.stop();
    }
  }, 30_000);

  it('a mail listener that fails after sending (as if killed between send and mark) sends again; the email goes out once', async () => {
    const reactions = new CommerceReactions(
      new IdentityDirectory(rpc, logger),
      new TimelineService(new TimelineRepository(db), logger),
      new PendingMailRepository(db),
      { publicUrl: 'http://shop.test' },
    );
    // Identity's mail queue (mail/mail-queue.ts in apps/identity), to know when every queued mail has run.
    const mailQueue = new Queue('identity-mail', { connection: { url: platform.env.REDIS_URL }, prefix: platform.env.REDIS_PREFIX });
    const refunded = order(`outbox-${randomUUID().slice(0, 8)}@example.com`);
    let sends = 0;
    const listener = new OutboxListener<CommerceDomainEvent>({
      ...common(),
      name: `test-mail-${randomUUID().slice(0, 8)}`,
      mode: 'effect',
      retryMs: 50,
      handle: async (event) => {
        if (event.aggregateId !== refunded.id) return;
        await reactions.toMail(event);
        sends += 1;
        if (sends === 1) throw new Error('killed after sending, before the mark');
      },
    });
    await listener.start();
    try {
      await commit(commerceEvent(COMMERCE_EVENTS.orderRefunded, { type: 'order', id: refunded.id }, fullRefund(refunded)));
      // This listener sent twice; the commerce process's own mail listener sent the same email once more.
      await eventually(
        () => Promise.resolve(sends),
        (n) => n === 2,
      );
      await smtp.mailTo(refunded.email, /refunded in full/);
      // Every mail identity queued has run (each send was answered after its job was queued).
      await eventually(
        async () => Object.values(await mailQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized')),
        (counts) => counts.every((n) => n === 0),
      );
      expect(sends).toBe(2);
      expect(refundMails(refunded.email)).toHaveLength(1);
    } finally {
      await listener.stop();
      await mailQueue.close();
    }
  }, 30_000);

  it('delivers the events of one aggregate in the order they were committed, each once, with two relays at once', async () => {
    // The process's relay is stopped: two relays of this test publish, as two replicas would.
    await platform.stopProcess('commerce');
    const seen: OutboxEnvelope[] = [];
    const aggregates: string[] = [randomUUID(), randomUUID(), randomUUID()];
    const listener = new OutboxListener({
      ...common(),
      name: `test-order-${randomUUID().slice(0, 8)}`,
      mode: 'transaction',
      handle: (event) => {
        if (aggregates.includes(event.aggregateId)) seen.push(event);
        return Promise.resolve();
      },
    });
    await listener.start();
    const relays = [0, 1].map(() => new OutboxRelay({ ...common(), pollMs: 60_000, batchSize: 5 }));
    try {
      const committed: Array<{ aggregate: string; step: number }> = [];
      for (let step = 0; step < 10; step++) {
        for (const aggregate of aggregates) {
          const o = { ...order('order@example.com'), id: aggregate, note: String(step) };
          await commit(
            commerceEvent(
              COMMERCE_EVENTS.orderReplyAdded,
              { type: 'order', id: aggregate },
              {
                order: o,
                reply: { id: randomUUID(), authorId: o.sellerId, role: 'seller', note: String(step) },
              },
            ),
          );
          committed.push({ aggregate, step });
        }
        // Both relays at once, while events are still being committed.
        if (step % 3 === 0) await Promise.all(relays.map((r) => r.drain()));
      }
      await Promise.all(relays.map((r) => r.drain()));
      await Promise.all(relays.map((r) => r.drain()));
      await eventually(
        () => Promise.resolve(seen.length),
        (n) => n >= 30,
      );
      expect(seen).toHaveLength(30);
      expect(new Set(seen.map((e) => e.id)).size).toBe(30);
      for (const aggregate of aggregates) {
        const steps = seen
          .filter((e) => e.aggregateId === aggregate)
          .map((e) => (e as CommerceDomainEvent & { name: typeof COMMERCE_EVENTS.orderReplyAdded }).payload.reply.note);
        expect(steps).toEqual(committed.filter((c) => c.aggregate === aggregate).map((c) => String(c.step)));
      }
      // Each event is on the stream once: neither relay published one twice.
      const jsm = await jetstreamManager(rpc.connection);
      const info = await jsm.streams.info(streamName({ prefix: platform.env.NATS_PREFIX ?? '', stream: COMMERCE_STREAM }));
      const total = (await db.query(`SELECT count(*)::int AS "n" FROM "commerce"."outbox_event"`)) as Array<{ n: number }>;
      expect(info.state.messages).toBe(total[0]!.n);
    } finally {
      await listener.stop();
      for (const relay of relays) await relay.stop();
      await platform.startProcess('commerce');
    }
  }, 60_000);
});
