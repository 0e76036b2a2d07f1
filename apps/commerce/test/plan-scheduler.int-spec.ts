import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BullModule } from '@nestjs/bullmq';
import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { queueRoot, RpcClient, createLogger } from '@tinkerdesk/nest-common';
import { serviceDataSourceOptions } from '@tinkerdesk/persistence';
import { startLoopbackStripe, TestPlatform, type LoopbackStripe } from '@tinkerdesk/testing';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source.js';
import { MethodsRepository } from '../src/methods/methods.repository.js';
import { MethodsService } from '../src/methods/methods.service.js';
import { IdentityDirectory } from '../src/notify/identity-directory.js';
import type { PaymentProviders } from '../src/payments/payment-provider.js';
import { StripePaymentProvider } from '../src/payments/stripe.provider.js';
import type { PlanView } from '@tinkerdesk/contracts';
import { CLOCK, type Clock } from '../src/plans/clock.js';
import { dueAt } from '../src/plans/plan-schedule.js';
import { COMMERCE_LOGGER } from '../src/logger.token.js';
import { PLAN_QUEUE, PlanProcessor, PlanScheduler, SCHEDULER_SETTINGS } from '../src/plans/plan-scheduler.js';
import { PlansRepository } from '../src/plans/plans.repository.js';
import { PlansService } from '../src/plans/plans.service.js';
import { ProductsRepository } from '../src/products/products.repository.js';
import { ProductsService } from '../src/products/products.service.js';
import { SandboxPaymentProvider } from '../src/sandbox/sandbox.provider.js';
import { SandboxRepository } from '../src/sandbox/sandbox.repository.js';
import { ProviderServicesRepository } from '../src/services/provider-services.repository.js';
import { ProviderServicesService } from '../src/services/provider-services.service.js';
import { TimelineRepository } from '../src/timeline/timeline.repository.js';
import { TimelineService } from '../src/timeline/timeline.service.js';
import { CommerceOutbox } from '../src/events/commerce-outbox.js';
import { CommerceReactions } from '../src/events/commerce-reactions.js';
import { PendingMailRepository } from '../src/events/pending-mail.repository.js';
import { ProductImagesRepository } from '../src/products/product-images.repository.js';
import { eventually } from './eventually.js';

/**
 * The plan scheduler against the real PostgreSQL, Redis (BullMQ) and NATS, with a clock the test
 * moves: fourteen months of charges (month ends: the 31st, February, the 30th; both daylight saving
 * changes), run by two replicas at once, one of them restarted in the middle. Every period is charged
 * exactly once, on its time; a card that fails is retried, then the plan is unpaid; a card replaced
 * between tries pays on the next try.
 */
class MovableClock implements Clock {
  constructor(private at: Date) {}
  now(): Date {
    return new Date(this.at);
  }
  set(at: Date): void {
    this.at = new Date(at);
  }
}

let platform: TestPlatform;
let loopbackStripe: LoopbackStripe;
const STRIPE_SELLER = 'acct_1PlanSellerAbcd';
let db: DataSource;
let rpc: RpcClient;
/** The outbox relay and listeners (timeline, mail), as the commerce process runs them. */
let outbox: CommerceOutbox;
const clock = new MovableClock(new Date('2027-01-20T12:00:00Z'));
const logger = createLogger('plan-scheduler-test', 'silent');

interface Replica {
  plans: PlansService;
  scheduler: PlanScheduler;
  app: INestApplicationContext;
}

/** The plans' queue of one commerce replica, wired as in AppModule (queue, scheduler, processor). */
@Module({})
class ReplicaQueueModule {
  static register(plans: PlansService): DynamicModule {
    return {
      module: ReplicaQueueModule,
      imports: [
        queueRoot({
          redisUrl: platform.env.REDIS_URL ?? 'redis://localhost:6379',
          prefix: platform.env.REDIS_PREFIX ?? 'test',
          name: 'plan-scheduler-test',
        }),
        BullModule.registerQueue({ name: PLAN_QUEUE }),
      ],
      providers: [
        PlanScheduler,
        PlanProcessor,
        { provide: PlansService, useValue: plans },
        { provide: CLOCK, useValue: clock },
        { provide: SCHEDULER_SETTINGS, useValue: { sweepSeconds: 0, concurrency: 3 } },
        { provide: COMMERCE_LOGGER, useValue: logger },
      ],
    };
  }
}

async function replica(): Promise<Replica> {
  const sandbox = new SandboxPaymentProvider(new SandboxRepository(db), { publicUrl: 'http://shop.test', sessionMinutes: 60 });
  const stripe = new StripePaymentProvider(
    { secretKey: loopbackStripe.secretKey, webhookSecret: loopbackStripe.webhookSecret, apiUrl: loopbackStripe.url, timeoutMs: 5000 },
    logger,
  );
  const providers: PaymentProviders = { sandbox, stripe };
  const identity = new IdentityDirectory(rpc, logger);
  const services = new ProviderServicesService(new ProviderServicesRepository(db), providers);
  const plans = new PlansService(
    new PlansRepository(db),
    new MethodsService(new MethodsRepository(db), providers, identity, { publicUrl: 'http://shop.test', stripeConfigured: true }, logger),
    services,
    new ProductsService(new ProductsRepository(db), services, new ProductImagesRepository(db)),
    providers,
    clock,
    { publicUrl: 'http://shop.test' },
    logger,
  );
  // Started like a service: the worker on module init, the boot sweep on bootstrap; closed on shutdown.
  const app = await NestFactory.createApplicationContext(ReplicaQueueModule.register(plans), { logger: false });
  return { plans, scheduler: app.get(PlanScheduler), app };
}

const sellerId = randomUUID();
const serviceId = randomUUID();
const productId = randomUUID();

/** A saved sandbox card of a new payer (as the sandbox's card page keeps it). */
async function card(chargesFail = false): Promise<{ payerId: string; methodId: string; ref: string }> {
  const payerId = randomUUID();
  const ref = `pm_sandbox_${randomUUID().replace(/-/g, '')}`;
  const methodId = randomUUID();
  await db.query(
    `INSERT INTO "commerce"."sandbox_card" ("id", "user_id", "brand", "last4", "exp_month", "exp_year", "charges_fail") VALUES ($1, $2, 'visa', $3, 12, 2034, $4)`,
    [ref, payerId, chargesFail ? '0341' : '4242', chargesFail],
  );
  await db.query(
    `INSERT INTO "commerce"."payment_method" ("id", "user_id", "provider", "ref", "brand", "last4", "exp_month", "exp_year", "is_default")
     VALUES ($1, $2, 'sandbox', $3, 'visa', $4, 12, 2034, true)`,
    [methodId, payerId, ref, chargesFail ? '0341' : '4242'],
  );
  return { payerId, methodId, ref };
}

const paidCharges = async (ref: string) =>
  (
    (await db.query(`SELECT count(*)::int AS n FROM "commerce"."sandbox_charge" WHERE "card_id" = $1 AND "paid"`, [ref])) as Array<{
      n: number;
    }>
  )[0]!.n;

let a: Replica;
let b: Replica;

/** A monthly plan on the 1st (UTC) of a payer's card, its first charge 10 minutes from the clock's now. */
async function monthly(c: { payerId: string; methodId: string }): Promise<{ plan: PlanView; start: Date }> {
  const start = new Date(clock.now().getTime() + 10 * 60_000);
  const plan = await a.plans.create({
    service: serviceId,
    product: productId,
    interval: 'month',
    payerId: c.payerId,
    reminderDay: 1,
    start: start.toISOString(),
    timeZone: 'UTC',
    paymentMethod: c.methodId,
  });
  return { plan, start };
}

/** Moves the clock to the next due time (plus a little), lets both replicas sweep and waits for the charges. */
async function step(extraMs = 1000): Promise<Date | null> {
  const rows = (await db.query(
    `SELECT min("next_charge_at") AS at FROM "commerce"."plan" WHERE "state" IN ('active', 'past_due')`,
  )) as Array<{ at: Date | null }>;
  const at = rows[0]?.at;
  if (!at) return null;
  clock.set(new Date(at.getTime() + extraMs));
  await Promise.all([a.scheduler.sweep(), b.scheduler.sweep()]);
  await a.scheduler.idle();
  return at;
}

beforeAll(async () => {
  loopbackStripe = await startLoopbackStripe({ accounts: [{ id: STRIPE_SELLER, chargesEnabled: true, detailsSubmitted: true }] });
  platform = await TestPlatform.start(['identity']);
  db = new DataSource(serviceDataSourceOptions(dataSourceOptions(platform.env.DATABASE_URL!)));
  await db.initialize();
  rpc = await RpcClient.connect({
    natsUrl: platform.env.NATS_URL ?? 'nats://localhost:4222',
    prefix: platform.env.NATS_PREFIX ?? '',
    timeoutMs: 3000,
    name: 'plan-scheduler-test',
  });
  await db.query(
    `INSERT INTO "commerce"."service" ("id", "user_id", "name", "display_name", "provider", "vendor", "account") VALUES ($1, $2, 'Lessons', 'Lessons', 'sandbox', 'digital', 'sandbox_lessons')`,
    [serviceId, sellerId],
  );
  await db.query(`INSERT INTO "commerce"."product" ("id", "service_id", "user_id", "name", "price") VALUES ($1, $2, $3, 'Lesson', 2500)`, [
    productId,
    serviceId,
    sellerId,
  ]);
  const timeline = new TimelineService(new TimelineRepository(db), logger);
  const reactions = new CommerceReactions(new IdentityDirectory(rpc, logger), timeline, new PendingMailRepository(db), {
    publicUrl: 'http://shop.test',
  });
  outbox = new CommerceOutbox(
    db,
    rpc,
    reactions,
    { prefix: platform.env.NATS_PREFIX ?? '', pollMs: 500, retentionDays: 7, retentionSweepSeconds: 0 },
    logger,
  );
  await outbox.onApplicationBootstrap();
  a = await replica();
  b = await replica();
}, 120_000);

afterAll(async () => {
  await a?.app.close();
  await b?.app.close();
  const queue = new Queue(PLAN_QUEUE, {
    connection: { url: platform.env.REDIS_URL ?? 'redis://localhost:6379' },
    prefix: platform.env.REDIS_PREFIX ?? 'test',
  });
  await queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  await outbox?.onModuleDestroy();
  await rpc?.close();
  await db?.destroy();
  await platform?.close();
  await loopbackStripe?.close();
});

describe('the plan scheduler', () => {
  it('charges fourteen months of two plans exactly once each, on time, with two replicas and a restart', async () => {
    const monthEnd = await card();
    const twentyEighth = await card();
    const base = { service: serviceId, product: productId, interval: 'month' as const };
    // 14:00 in New York on the last day of each month; 01:30 in London on the 25th.
    const p1 = await a.plans.create({
      ...base,
      payerId: monthEnd.payerId,
      reminderDay: -1,
      start: '2027-01-31T14:00:00-05:00',
      timeZone: 'America/New_York',
      paymentMethod: monthEnd.methodId,
    });
    const p2 = await b.plans.create({
      ...base,
      payerId: twentyEighth.payerId,
      reminderDay: 25,
      start: '2027-01-25T01:30:00Z',
      timeZone: 'Europe/London',
      paymentMethod: twentyEighth.methodId,
    });
    const seen: string[] = [];
    for (let i = 0; i < 28; i++) {
      if (i === 11) {
        // Replica b stops in the middle of the year and a new one starts (it sweeps at boot).
        await b.app.close();
        b = await replica();
      }
      const at = await step(i % 3 === 0 ? 1000 : 7 * 60_000);
      if (at) seen.push(at.toISOString());
      // Two runners asking at once for the same plan while nothing is due change nothing.
      expect(await Promise.all([a.plans.runDue(p1.id), b.plans.runDue(p1.id)])).toEqual(['nothing', 'nothing']);
    }
    const charges1 = (await db.query(
      `SELECT "period", "due_at", "state" FROM "commerce"."plan_charge" WHERE "plan_id" = $1 ORDER BY "period"`,
      [p1.id],
    )) as Array<{ period: number; due_at: Date; state: string }>;
    const charges2 = (await db.query(
      `SELECT "period", "due_at", "state" FROM "commerce"."plan_charge" WHERE "plan_id" = $1 ORDER BY "period"`,
      [p2.id],
    )) as Array<{ period: number; due_at: Date; state: string }>;
    expect(charges1.map((c) => c.due_at.toISOString())).toEqual([
      '2027-01-31T19:00:00.000Z',
      '2027-02-28T19:00:00.000Z',
      '2027-03-31T18:00:00.000Z', // New York is on summer time from 14 March
      '2027-04-30T18:00:00.000Z',
      '2027-05-31T18:00:00.000Z',
      '2027-06-30T18:00:00.000Z',
      '2027-07-31T18:00:00.000Z',
      '2027-08-31T18:00:00.000Z',
      '2027-09-30T18:00:00.000Z',
      '2027-10-31T18:00:00.000Z',
      '2027-11-30T19:00:00.000Z', // and on standard time again from 7 November
      '2027-12-31T19:00:00.000Z',
      '2028-01-31T19:00:00.000Z',
      '2028-02-29T19:00:00.000Z', // a leap year's February
    ]);
    expect(charges2.slice(0, 11).map((c) => c.due_at.toISOString())).toEqual([
      '2027-01-25T01:30:00.000Z',
      '2027-02-25T01:30:00.000Z',
      '2027-03-25T01:30:00.000Z',
      '2027-04-25T00:30:00.000Z', // British summer time from 28 March
      '2027-05-25T00:30:00.000Z',
      '2027-06-25T00:30:00.000Z',
      '2027-07-25T00:30:00.000Z',
      '2027-08-25T00:30:00.000Z',
      '2027-09-25T00:30:00.000Z',
      '2027-10-25T00:30:00.000Z',
      '2027-11-25T01:30:00.000Z', // GMT again from 31 October
    ]);
    for (const charges of [charges1, charges2]) {
      expect(charges.every((c) => c.state === 'paid')).toBe(true);
      expect(charges.map((c) => c.period)).toEqual(charges.map((_, i) => i));
    }
    // The card was charged once per period: no more, no less.
    expect(await paidCharges(monthEnd.ref)).toBe(charges1.length);
    expect(await paidCharges(twentyEighth.ref)).toBe(charges2.length);
    // Each charge happened at its due time (the clock never passed one without charging it).
    expect(seen.length).toBe(28);
    const plan1 = await a.plans.get(p1.id, monthEnd.payerId);
    expect(plan1).toMatchObject({
      state: 'active',
      paidPeriods: 14,
      nextCharge: dueAt({ ...plan1, startAt: new Date(plan1.start) }, 14).toISOString(),
    });
    await a.plans.cancel(p1.id, monthEnd.payerId);
    await a.plans.cancel(p2.id, twentyEighth.payerId);
  }, 120_000);

  it('runs as many jobs at once as the config says (PLAN_CONCURRENCY), in every replica', () => {
    for (const r of [a, b]) expect(r.app.get(PlanProcessor).worker.concurrency).toBe(3);
  });

  it('a run that happens twice, or two at once, charges the period once', async () => {
    const c = await card();
    const { plan, start } = await monthly(c);
    clock.set(new Date(start.getTime() + 1000));
    const runs = await Promise.all([a.plans.runDue(plan.id), b.plans.runDue(plan.id), a.plans.runDue(plan.id), b.plans.runDue(plan.id)]);
    expect(runs.filter((r) => r === 'paid')).toHaveLength(1);
    expect(await paidCharges(c.ref)).toBe(1);
    await a.plans.cancel(plan.id, c.payerId);
  });

  it('a failing card is retried after 1 hour, 1 day and 3 days, then the plan is unpaid; a card put in between tries pays', async () => {
    const failing = await card(true);
    const { plan, start } = await monthly(failing);
    const at: string[] = [];
    for (let i = 0; i < 4; i++) at.push((await step())!.toISOString());
    const hours = at.map((t) => (new Date(t).getTime() - start.getTime()) / 3_600_000);
    expect(hours.map((h) => Math.round(h))).toEqual([0, 1, 25, 97]);
    const view = await a.plans.get(plan.id, failing.payerId);
    expect(view).toMatchObject({ state: 'unpaid', nextCharge: null, paidPeriods: 0, lastError: 'Your card was declined.' });
    expect(view.charges).toEqual([expect.objectContaining({ period: 0, state: 'failed', attempts: 4, error: 'Your card was declined.' })]);
    // Written by the timeline listener after each outcome committed.
    const kinds = await eventually(
      () =>
        db.query(`SELECT "kind" FROM "commerce"."timeline_event" WHERE "plan_id" = $1 AND "user_id" = $2 ORDER BY "created"`, [
          plan.id,
          failing.payerId,
        ]) as Promise<Array<{ kind: string }>>,
      (rows) => rows.length >= 5,
    );
    expect(kinds.map((k) => k.kind)).toEqual(['plan.created', 'plan.failed', 'plan.failed', 'plan.failed', 'plan.failed']);

    // Another payer's card fails once, then a working card takes the plan over: the retry pays.
    const second = await card(true);
    const good = randomUUID();
    const goodRef = `pm_sandbox_${randomUUID().replace(/-/g, '')}`;
    await db.query(
      `INSERT INTO "commerce"."sandbox_card" ("id", "user_id", "brand", "last4", "exp_month", "exp_year", "charges_fail") VALUES ($1, $2, 'visa', '4242', 12, 2034, false)`,
      [goodRef, second.payerId],
    );
    await db.query(
      `INSERT INTO "commerce"."payment_method" ("id", "user_id", "provider", "ref", "brand", "last4", "exp_month", "exp_year") VALUES ($1, $2, 'sandbox', $3, 'visa', '4242', 12, 2034)`,
      [good, second.payerId, goodRef],
    );
    const { plan: plan2 } = await monthly(second);
    await step();
    expect(await a.plans.get(plan2.id, second.payerId)).toMatchObject({ state: 'past_due', lastError: 'Your card was declined.' });
    await new MethodsRepository(db).delete(second.methodId, second.payerId, good, a.plans);
    await step();
    const paid = await a.plans.get(plan2.id, second.payerId);
    expect(paid).toMatchObject({ state: 'active', paidPeriods: 1, lastError: null });
    expect(paid.charges[0]).toMatchObject({ period: 0, state: 'paid', attempts: 2, error: null });
    expect(await paidCharges(goodRef)).toBe(1);
    await a.plans.cancel(plan2.id, second.payerId);
  });

  it('cancelling stops the charges at once', async () => {
    const c = await card();
    const { plan } = await monthly(c);
    await step();
    expect(await paidCharges(c.ref)).toBe(1);
    await b.plans.cancel(plan.id, c.payerId);
    clock.set(new Date(clock.now().getTime() + 400 * 86_400_000));
    await Promise.all([a.scheduler.sweep(), b.scheduler.sweep()]);
    await a.scheduler.idle();
    expect(await a.plans.runDue(plan.id)).toBe('nothing');
    expect(await paidCharges(c.ref)).toBe(1);
  });

  it('a plan of a Stripe seller: each period one off-session charge to the seller’s account (a destination charge)', async () => {
    const stripeServiceId = randomUUID();
    const stripeProductId = randomUUID();
    await db.query(
      `INSERT INTO "commerce"."service" ("id", "user_id", "name", "display_name", "provider", "vendor", "account") VALUES ($1, $2, 'Stripe lessons', 'Stripe lessons', 'stripe', 'digital', $3)`,
      [stripeServiceId, sellerId, STRIPE_SELLER],
    );
    await db.query(
      `INSERT INTO "commerce"."product" ("id", "service_id", "user_id", "name", "price") VALUES ($1, $2, $3, 'Lesson', 3000)`,
      [stripeProductId, stripeServiceId, sellerId],
    );
    // The payer's card, saved on Stripe's page.
    const payerId = randomUUID();
    const stripe = new StripePaymentProvider(
      { secretKey: loopbackStripe.secretKey, webhookSecret: undefined, apiUrl: loopbackStripe.url, timeoutMs: 5000 },
      logger,
    );
    const setup = await stripe.createSetup({
      userId: payerId,
      email: null,
      customerRef: null,
      successUrl: 'http://shop.test/billing?setup={CHECKOUT_SESSION_ID}',
      cancelUrl: 'http://shop.test/billing',
      idempotencyKey: `setup-${payerId}`,
    });
    expect(await loopbackStripe.saveCard(setup.id, '4242424242424242')).toBe('saved');
    const state = await stripe.retrieveSetup(setup.id);
    if (state?.status !== 'complete') throw new Error('the card was not saved');
    const methodId = randomUUID();
    await new MethodsRepository(db).insert({ id: methodId, userId: payerId, provider: 'stripe', ...state.card });
    const start = new Date(clock.now().getTime() + 10 * 60_000);
    const plan = await a.plans.create({
      service: stripeServiceId,
      product: stripeProductId,
      interval: 'quarter',
      payerId,
      reminderDay: -1,
      start: start.toISOString(),
      timeZone: 'Australia/Sydney',
      paymentMethod: methodId,
    });
    for (let i = 0; i < 3; i++) await step();
    const intents = loopbackStripe.paymentIntents(state.card.customerRef!);
    expect(intents.map((pi) => [pi.status, pi.amount, pi.transfer_data?.destination, pi.metadata.period])).toEqual([
      ['succeeded', 3000, STRIPE_SELLER, '0'],
      ['succeeded', 3000, STRIPE_SELLER, '1'],
      ['succeeded', 3000, STRIPE_SELLER, '2'],
    ]);
    expect(await a.plans.get(plan.id, payerId)).toMatchObject({ state: 'active', paidPeriods: 3 });
    await a.plans.cancel(plan.id, payerId);
  });
});
