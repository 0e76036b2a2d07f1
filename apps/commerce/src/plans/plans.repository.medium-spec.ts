import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COMMERCE_EVENTS } from '@tinkerdesk/contracts';
import { staysBlocked, type RepositoryDatabase } from '@tinkerdesk/testing';
import { commerceEvent, planSnapshot } from '../events/commerce-events.js';
import { MethodsRepository } from '../methods/methods.repository.js';
import { PlansRepository, type PlanRow } from './plans.repository.js';
import { commerceDatabase, insertService, outboxCount } from '../../test/repository-database.js';

let db: RepositoryDatabase;
let repository: PlansRepository;
let methods: MethodsRepository;
let serviceId: string;

beforeAll(async () => {
  db = await commerceDatabase();
  repository = new PlansRepository(db.dataSource);
  methods = new MethodsRepository(db.dataSource);
  serviceId = await insertService(db);
});

afterAll(() => db?.close());

const due = new Date('2026-01-01T00:00:00Z');

function plan(fields: Partial<PlanRow> = {}): Parameters<PlansRepository['insert']>[0] {
  return {
    id: randomUUID(),
    payerId: randomUUID(),
    sellerId: randomUUID(),
    serviceId,
    productId: null,
    product: { name: 'Box', price: 900, currency: 'USD' },
    provider: 'stripe',
    account: 'acct_1',
    interval: 'month',
    reminderDay: 3,
    startAt: due,
    timeZone: 'Europe/Berlin',
    methodId: null,
    nextChargeAt: due,
    ...fields,
  };
}

const paid = (next: Date) => ({ paid: true as const, paymentRef: `pi_${randomUUID()}`, next });

describe('plans', () => {
  it('inserts an active plan and reads back every field (not who holds it)', async () => {
    const p = plan();
    const inserted = await repository.insert(p);
    expect(inserted).toEqual({
      ...p,
      state: 'active',
      period: 0,
      attempts: 0,
      lastError: null,
      cancelledAt: null,
      created: expect.any(Date),
    });
    await expect(repository.find(p.id)).resolves.toEqual(inserted);
    await expect(repository.find(randomUUID())).resolves.toBeNull();
  });

  it('refuses an interval or reminder day outside the lists (checks)', async () => {
    await expect(repository.insert(plan({ interval: 'week' as never }))).rejects.toThrow(/check/);
    await expect(repository.insert(plan({ reminderDay: 29 }))).rejects.toThrow(/check/);
  });

  it('lists the plans a user pays or is paid by, newest first', async () => {
    const user = randomUUID();
    const a = await repository.insert(plan({ payerId: user }));
    const b = await repository.insert(plan({ sellerId: user }));
    await repository.insert(plan());
    expect((await repository.listFor(user)).map((p) => p.id)).toEqual([b.id, a.id]);
  });

  it('cancels a live plan once, with its events in the outbox', async () => {
    const p = await repository.insert(plan());
    const now = new Date();
    const cancelled = (done: PlanRow) => [
      commerceEvent(COMMERCE_EVENTS.planCancelled, { type: 'plan', id: done.id }, { plan: planSnapshot(done), by: 'payer' }),
    ];
    await expect(repository.cancel(p.id, now, cancelled)).resolves.toMatchObject({
      state: 'cancelled',
      nextChargeAt: null,
      cancelledAt: now,
    });
    await expect(outboxCount(db, p.id)).resolves.toBe(1);
    await expect(repository.cancel(p.id, now, cancelled)).resolves.toBeNull();
    await expect(outboxCount(db, p.id)).resolves.toBe(1);
  });

  it('counts the live plans per card; in a card’s transaction locks them (FOR UPDATE) and moves them', async () => {
    const user = randomUUID();
    const saved = (ref: string) =>
      methods.insert({
        id: randomUUID(),
        userId: user,
        provider: 'stripe',
        ref,
        customerRef: null,
        brand: 'visa',
        last4: '4242',
        expMonth: 1,
        expYear: 2031,
      });
    const { row: a } = await saved(`pm_${randomUUID()}`);
    const { row: b } = await saved(`pm_${randomUUID()}`);
    const live = await repository.insert(plan({ payerId: user, methodId: a.id }));
    const gone = await repository.insert(plan({ payerId: user, methodId: a.id }));
    await repository.cancel(gone.id, new Date());
    await expect(repository.liveCountsByCard([a.id, b.id])).resolves.toEqual(new Map([[a.id, 1]]));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const locked = new Promise<void>((resolve) => (entered = resolve));
    const work = db.dataSource.transaction(async (m) => {
      expect(await repository.lockLiveOfCard(m, a.id)).toEqual([live.id]);
      entered();
      await held;
      await repository.moveToCard(m, [live.id], b.id);
    });
    await locked;
    const competing = repository.cancel(live.id, new Date());
    await expect(staysBlocked(competing)).resolves.toBe(true);
    release();
    await work;
    await expect(competing).resolves.toMatchObject({ id: live.id, methodId: b.id, state: 'cancelled' });
  });

  it('inserts a plan with its events in one transaction', async () => {
    const p = plan();
    const created = commerceEvent(COMMERCE_EVENTS.planCreated, { type: 'plan', id: p.id }, { plan: planSnapshot(p), interval: 'month' });
    await repository.insert(p, [created]);
    await expect(outboxCount(db, p.id)).resolves.toBe(1);
  });

  it('finds due plans not held by a runner; one claim of two wins, with its card id; a release lets it go', async () => {
    const user = randomUUID();
    const { row: card } = await methods.insert({
      id: randomUUID(),
      userId: user,
      provider: 'stripe',
      ref: `pm_${randomUUID()}`,
      customerRef: 'cus_1',
      brand: 'visa',
      last4: '4242',
      expMonth: 1,
      expYear: 2031,
    });
    const p = await repository.insert(plan({ payerId: user, methodId: card.id, nextChargeAt: new Date('2000-01-01T00:00:00Z') }));
    const noCard = await repository.insert(plan({ nextChargeAt: new Date('2000-01-02T00:00:00Z') }));
    await repository.insert(plan({ nextChargeAt: new Date('2999-01-01T00:00:00Z') }));
    const now = new Date();
    const found = await repository.due(now, 500);
    expect(found.slice(0, 2).map((d) => ({ id: d.id, period: d.period, attempts: d.attempts }))).toEqual([
      { id: p.id, period: 0, attempts: 0 },
      { id: noCard.id, period: 0, attempts: 0 },
    ]);
    const [first, second] = await Promise.all([repository.claim(p.id, now), repository.claim(p.id, now)]);
    const claimed = first ?? second;
    expect([first, second].filter((c) => c === null)).toHaveLength(1);
    expect(claimed).toMatchObject({ id: p.id, methodId: card.id });
    // The card itself is the methods feature's to read.
    await expect(methods.card(card.id)).resolves.toEqual({ ref: card.ref, customerRef: 'cus_1' });
    expect(claimed).not.toHaveProperty('claimedUntil');
    expect((await repository.due(now)).map((d) => d.id)).not.toContain(p.id);
    // The hold lapses after five minutes.
    expect((await repository.due(new Date(now.getTime() + 301_000))).map((d) => d.id)).toContain(p.id);
    await repository.release(p.id);
    expect((await repository.due(now)).map((d) => d.id)).toContain(p.id);
    await expect(repository.claim(noCard.id, now)).resolves.toMatchObject({ id: noCard.id, methodId: null });
  });

  it('records a charge once per period and try, with its events in the outbox; a paid period stays paid', async () => {
    const p = await repository.insert(plan());
    const next = new Date('2026-02-01T00:00:00Z');
    const event = commerceEvent(
      COMMERCE_EVENTS.planCharged,
      { type: 'plan', id: p.id },
      {
        plan: { id: p.id, payerId: p.payerId, sellerId: p.sellerId, productName: 'Box', price: 900, timeZone: p.timeZone },
        paymentId: 'pi_1',
        next: next.toISOString(),
      },
    );
    await expect(repository.record(p, due, randomUUID(), paid(next), [event])).resolves.toBe(true);
    // Another runner with the same (now old) plan state loses.
    await expect(repository.record(p, due, randomUUID(), paid(next))).resolves.toBe(false);
    await expect(repository.find(p.id)).resolves.toMatchObject({
      period: 1,
      attempts: 0,
      state: 'active',
      nextChargeAt: next,
      lastError: null,
    });
    await expect(outboxCount(db, p.id)).resolves.toBe(1);

    // A failed try of period 1, then a paid one: the charge row follows; a failure after paid changes nothing.
    const atOne = (await repository.find(p.id))!;
    await expect(repository.record(atOne, next, randomUUID(), { paid: false, error: 'declined', next, state: 'past_due' })).resolves.toBe(
      true,
    );
    const failed = (await repository.find(p.id))!;
    expect(failed).toMatchObject({ period: 1, attempts: 1, state: 'past_due', lastError: 'declined' });
    await expect(repository.record(failed, next, randomUUID(), paid(new Date('2026-03-01T00:00:00Z')))).resolves.toBe(true);

    const charges = await repository.charges([p.id, randomUUID()]);
    expect(charges.get(p.id)!.map((c) => [c.period, c.state, c.attempts, c.amount])).toEqual([
      [1, 'paid', 2, 900],
      [0, 'paid', 1, 900],
    ]);
    expect(charges.get(p.id)![0]).not.toHaveProperty('modified');
    expect(charges.get(p.id)![0]).not.toHaveProperty('n');
    expect([...(await repository.paidPeriods([p.id])).entries()]).toEqual([[p.id, 2]]);
    await expect(repository.paidPeriods([])).resolves.toEqual(new Map());
  });

  it('keeps a cancelled plan cancelled when a charge is recorded after, and answers the latest charges only', async () => {
    const p = await repository.insert(plan());
    await repository.cancel(p.id, new Date());
    await expect(repository.record(p, due, randomUUID(), paid(new Date('2026-02-01T00:00:00Z')))).resolves.toBe(true);
    await expect(repository.find(p.id)).resolves.toMatchObject({ state: 'cancelled', nextChargeAt: null, period: 1 });
    expect((await repository.charges([p.id], 0)).get(p.id)).toEqual([]);
  });
});
