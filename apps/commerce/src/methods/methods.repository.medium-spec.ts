import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql, type TransactionManager } from '@tinkerdesk/persistence';
import { staysBlocked, type RepositoryDatabase } from '@tinkerdesk/testing';
import { COMMERCE_EVENTS } from '@tinkerdesk/contracts';
import { commerceEvent } from '../events/commerce-events.js';
import { PlansRepository } from '../plans/plans.repository.js';
import { MethodsRepository } from './methods.repository.js';
import { commerceDatabase, insertService, outboxCount } from '../../test/repository-database.js';

let db: RepositoryDatabase;
let repository: MethodsRepository;
let plans: PlansRepository;
let serviceId: string;

beforeAll(async () => {
  db = await commerceDatabase();
  repository = new MethodsRepository(db.dataSource);
  plans = new PlansRepository(db.dataSource);
  serviceId = await insertService(db);
});

afterAll(() => db?.close());

function card(userId: string, fields: { provider?: 'stripe' | 'sandbox'; ref?: string } = {}) {
  return {
    id: randomUUID(),
    userId,
    provider: fields.provider ?? 'stripe',
    ref: fields.ref ?? `pm_${randomUUID()}`,
    customerRef: 'cus_1',
    brand: 'visa',
    last4: '4242',
    expMonth: 12,
    expYear: 2030,
  } as const;
}

/** A live plan paid with `methodId`. */
async function plan(payerId: string, methodId: string, state: 'active' | 'cancelled' = 'active'): Promise<string> {
  const id = randomUUID();
  await plans.insert({
    id,
    payerId,
    sellerId: randomUUID(),
    serviceId,
    productId: null,
    product: { name: 'Box', price: 900, currency: 'USD' },
    provider: 'stripe',
    account: 'acct_1',
    interval: 'month',
    reminderDay: -1,
    startAt: new Date(),
    timeZone: 'UTC',
    methodId,
    nextChargeAt: new Date(),
  });
  if (state === 'cancelled') await plans.cancel(id, new Date());
  return id;
}

/** The plans feature's part of a card's deletion (PlansService in the service), on its repository. */
const cardPlans = {
  lockLive: (m: TransactionManager, methodId: string) => plans.lockLiveOfCard(m, methodId),
  moveTo: (m: TransactionManager, planIds: string[], methodId: string) => plans.moveToCard(m, planIds, methodId),
};

describe('payment customers', () => {
  it('keeps the first customer of a payer and provider', async () => {
    const user = randomUUID();
    await expect(repository.customerRef(user, 'stripe')).resolves.toBeNull();
    await repository.saveCustomer(user, 'stripe', 'cus_a');
    await repository.saveCustomer(user, 'stripe', 'cus_b');
    await expect(repository.customerRef(user, 'stripe')).resolves.toBe('cus_a');
    await expect(repository.customerRef(user, 'sandbox')).resolves.toBeNull();
  });
});

describe('payment methods', () => {
  it('keeps a card once; the first card of a provider becomes its default', async () => {
    const user = randomUUID();
    const first = card(user);
    const saved = await repository.insert(first);
    expect(saved).toEqual({ created: true, row: { ...first, isDefault: true, created: expect.any(Date) } });
    await expect(repository.insert({ ...first, id: randomUUID() })).resolves.toEqual({ created: false, row: saved.row });
    const second = await repository.insert(card(user));
    expect(second.row.isDefault).toBe(false);
    const other = await repository.insert(card(user, { provider: 'sandbox' }));
    expect(other.row.isDefault).toBe(true);
    expect((await repository.list(user)).map((m) => m.id)).toEqual([first.id, second.row.id, other.row.id]);
    await expect(repository.find(first.id, randomUUID())).resolves.toBeNull();
  });

  it('records a card’s events with the change: a card kept (once), made default, deleted', async () => {
    const user = randomUUID();
    const told =
      (name: typeof COMMERCE_EVENTS.methodAdded | typeof COMMERCE_EVENTS.methodDefaultChanged) =>
      (m: { id: string; brand: string; last4: string }) => [
        commerceEvent(name, { type: 'method', id: m.id }, { method: { id: m.id, userId: user, brand: m.brand, last4: m.last4 } }),
      ];
    const first = card(user);
    await repository.insert(first, told(COMMERCE_EVENTS.methodAdded));
    await repository.insert({ ...first, id: randomUUID() }, told(COMMERCE_EVENTS.methodAdded));
    await expect(outboxCount(db, first.id)).resolves.toBe(1);
    await repository.setDefault(first.id, user, told(COMMERCE_EVENTS.methodDefaultChanged));
    await expect(outboxCount(db, first.id)).resolves.toBe(2);
    await repository.delete(first.id, user, undefined, cardPlans, ({ row, moved }) => [
      commerceEvent(
        COMMERCE_EVENTS.methodRemoved,
        { type: 'method', id: row.id },
        { method: { id: row.id, userId: user, brand: row.brand, last4: row.last4 }, movedPlans: moved.length },
      ),
    ]);
    await expect(outboxCount(db, first.id)).resolves.toBe(3);
  });

  it('moves the default within the provider; refuses two defaults (unique index)', async () => {
    const user = randomUUID();
    const a = (await repository.insert(card(user))).row;
    const b = (await repository.insert(card(user))).row;
    const s = (await repository.insert(card(user, { provider: 'sandbox' }))).row;
    await expect(repository.setDefault(b.id, user)).resolves.toMatchObject({ id: b.id, isDefault: true });
    const listed = await repository.list(user);
    expect(listed.map((m) => [m.id, m.isDefault])).toEqual([
      [a.id, false],
      [b.id, true],
      [s.id, true],
    ]);
    await expect(repository.setDefault(b.id, randomUUID())).resolves.toBeNull();
    await expect(
      sql.execute(db.dataSource, `UPDATE "commerce"."payment_method" SET "is_default" = true WHERE "id" = $1`, [a.id]),
    ).rejects.toThrow(/duplicate key/);
  });

  it('serialises one payer’s changes (advisory lock)', async () => {
    const user = randomUUID();
    const a = (await repository.insert(card(user))).row;
    let waiting: ReturnType<MethodsRepository['setDefault']> | undefined;
    await db.dataSource.transaction(async (tx) => {
      await sql.execute(tx, `SELECT pg_advisory_xact_lock(hashtext($1))`, [`payment_method:${user}`]);
      waiting = repository.setDefault(a.id, user);
      await expect(staysBlocked(waiting)).resolves.toBe(true);
    });
    await expect(waiting).resolves.toMatchObject({ id: a.id, isDefault: true });
  });

  it('deletes a card; the newest other card of the provider becomes the default', async () => {
    const user = randomUUID();
    const a = (await repository.insert(card(user))).row;
    const b = (await repository.insert(card(user))).row;
    const c = (await repository.insert(card(user))).row;
    await expect(repository.delete(a.id, user, undefined, cardPlans)).resolves.toEqual({ row: a, moved: [] });
    await expect(repository.find(c.id, user)).resolves.toMatchObject({ isDefault: true });
    await expect(repository.find(b.id, user)).resolves.toMatchObject({ isDefault: false });
    await expect(repository.delete(a.id, user, undefined, cardPlans)).resolves.toBeNull();
  });

  it('keeps a card that pays for a live plan unless a replacement of the same provider takes its plans', async () => {
    const user = randomUUID();
    const a = (await repository.insert(card(user))).row;
    const b = (await repository.insert(card(user))).row;
    const s = (await repository.insert(card(user, { provider: 'sandbox' }))).row;
    const planId = await plan(user, a.id);
    await expect(repository.delete(a.id, user, undefined, cardPlans)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(repository.delete(a.id, user, a.id, cardPlans)).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    await expect(repository.delete(a.id, user, randomUUID(), cardPlans)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(repository.delete(a.id, user, s.id, cardPlans)).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    await expect(repository.find(a.id, user)).resolves.not.toBeNull();
    await expect(repository.delete(a.id, user, b.id, cardPlans)).resolves.toMatchObject({ row: { id: a.id }, moved: [planId] });
    await expect(plans.find(planId)).resolves.toMatchObject({ methodId: b.id });
    await expect(repository.find(b.id, user)).resolves.toMatchObject({ isDefault: true });
    await expect(plans.liveCountsByCard([a.id, b.id])).resolves.toEqual(new Map([[b.id, 1]]));
  });
});
