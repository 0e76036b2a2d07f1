import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from '@tinkerdesk/persistence';
import type { RepositoryDatabase } from '@tinkerdesk/testing';
import { SandboxRepository, type SandboxSessionRow } from './sandbox.repository.js';
import { commerceDatabase } from '../../test/repository-database.js';

let db: RepositoryDatabase;
let repository: SandboxRepository;

beforeAll(async () => {
  db = await commerceDatabase();
  repository = new SandboxRepository(db.dataSource);
});

afterAll(() => db?.close());

function session(fields: Partial<SandboxSessionRow> = {}): Parameters<SandboxRepository['insert']>[0] {
  return {
    id: `cs_${randomUUID()}`,
    mode: 'payment',
    orderId: randomUUID(),
    userId: null,
    account: 'acct_1',
    amount: 1250,
    currency: 'USD',
    email: 'buyer@example.test',
    productName: 'Poster',
    sellerName: 'Shop',
    successUrl: 'https://shop.example/ok',
    cancelUrl: 'https://shop.example/cancel',
    expiresAt: new Date(Date.now() + 3_600_000),
    ...fields,
  };
}

const pending = { brand: 'visa', last4: '3155', expMonth: 1, expYear: 2031, chargesFail: false };

function card(userId: string) {
  return { id: `pm_${randomUUID()}`, userId, brand: 'visa', last4: '4242', expMonth: 1, expYear: 2031, chargesFail: false };
}

describe('sandbox sessions', () => {
  it('inserts an open session and reads back every field', async () => {
    const s = session();
    await repository.insert(s);
    await expect(repository.find(s.id)).resolves.toEqual({
      ...s,
      status: 'open',
      error: null,
      paymentIntent: null,
      refunded: false,
      refundedAmount: 0,
      cardId: null,
      pendingCard: null,
    });
    await expect(repository.find('cs_none')).resolves.toBeNull();
  });

  it('moves a session only from the given states and only before it expires (unless to expired)', async () => {
    const s = session();
    await repository.insert(s);
    const moved = await repository.transition(s.id, ['open'], 'requires_action', { pendingCard: pending });
    expect(moved).toMatchObject({ status: 'requires_action', pendingCard: pending, error: null });
    expect(moved).not.toHaveProperty('modified');
    await expect(repository.transition(s.id, ['open'], 'complete', {})).resolves.toBeNull();
    const done = await repository.transition(s.id, ['requires_action'], 'complete', { paymentIntent: 'pi_1' });
    expect(done).toMatchObject({ status: 'complete', paymentIntent: 'pi_1', pendingCard: null });
    await expect(repository.transition(s.id, ['complete'], 'complete', {})).resolves.toMatchObject({ paymentIntent: 'pi_1' });

    const old = session({ expiresAt: new Date(Date.now() - 1000) });
    await repository.insert(old);
    await expect(repository.transition(old.id, ['open'], 'complete', {})).resolves.toBeNull();
    await expect(repository.transition(old.id, ['open'], 'expired', {})).resolves.toMatchObject({ status: 'expired' });
    await expect(repository.transition(s.id, ['complete'], 'lost' as never, {})).rejects.toThrow(/check/);
  });

  it('records a declined card on an open session only', async () => {
    const s = session();
    await repository.insert(s);
    await expect(repository.setError(s.id, 'card declined')).resolves.toMatchObject({ status: 'open', error: 'card declined' });
    await repository.transition(s.id, ['open'], 'expired', {});
    await expect(repository.setError(s.id, 'again')).resolves.toBeNull();
  });

  it('finds a paid session by payment and account, refunds it in parts up to its amount (once per key), counts the charges of an order', async () => {
    const s = session();
    await repository.insert(s);
    await repository.transition(s.id, ['open'], 'complete', { paymentIntent: 'pi_refund' });
    await repository.insert(session({ orderId: s.orderId }));
    await expect(repository.findByPayment('pi_refund', 'acct_1')).resolves.toMatchObject({ id: s.id });
    await expect(repository.findByPayment('pi_refund', 'acct_2')).resolves.toBeNull();
    await expect(repository.chargesFor(s.orderId!)).resolves.toBe(1);
    await expect(repository.refund('pi_refund', 'acct_2', 100, 'k1')).resolves.toBe('missing');
    const first = await repository.refund('pi_refund', 'acct_1', 1000, 'k1');
    expect(first).toMatchObject({ id: expect.stringMatching(/^re_sandbox_/) });
    // A retry under the same key answers the same refund; another key is another refund, within what remains.
    await expect(repository.refund('pi_refund', 'acct_1', 1000, 'k1')).resolves.toEqual(first);
    await expect(repository.refund('pi_refund', 'acct_1', 251, 'k2')).resolves.toBe('too_much');
    await expect(repository.find(s.id)).resolves.toMatchObject({ refunded: false, refundedAmount: 1000 });
    await expect(repository.refund('pi_refund', 'acct_1', 250, 'k2')).resolves.toMatchObject({ id: expect.any(String) });
    await expect(repository.refund('pi_refund', 'acct_1', 1, 'k3')).resolves.toBe('too_much');
    await expect(repository.refundedFor(s.orderId!)).resolves.toBe(1250);
    await expect(repository.find(s.id)).resolves.toMatchObject({ refunded: true, refundedAmount: 1250 });
  });
});

describe('sandbox cards and charges', () => {
  it('saves a card for an open setup session once, completing it in the same transaction', async () => {
    const user = randomUUID();
    const s = session({ mode: 'setup', orderId: null, userId: user });
    await repository.insert(s);
    const c = card(user);
    const [first, second] = await Promise.all([repository.saveCard(s.id, ['open'], c), repository.saveCard(s.id, ['open'], card(user))]);
    const saved = first ?? second;
    expect([first, second].filter((r) => r === null)).toHaveLength(1);
    expect(saved).toMatchObject({ status: 'complete', error: null, pendingCard: null });
    const kept = await repository.findCard(saved!.cardId!);
    expect(kept).toMatchObject({ userId: user, detached: false });
    expect(kept).not.toHaveProperty('created');
    const cards = await sql.one<{ n: number }>(
      db.dataSource,
      `SELECT count(*)::int AS n FROM "commerce"."sandbox_card" WHERE "user_id" = $1`,
      [user],
    );
    expect(cards.n).toBe(1);
    // A payment session saves no card.
    const payment = session();
    await repository.insert(payment);
    await expect(repository.saveCard(payment.id, ['open'], card(user))).resolves.toBeNull();
    await repository.detachCard(kept!.id);
    await expect(repository.findCard(kept!.id)).resolves.toMatchObject({ detached: true });
    await expect(repository.findCard('pm_none')).resolves.toBeNull();
  });

  it('charges once per idempotency key; a charge needs a known card (foreign key)', async () => {
    const user = randomUUID();
    const s = session({ mode: 'setup', orderId: null, userId: user });
    await repository.insert(s);
    const c = card(user);
    await repository.saveCard(s.id, ['open'], c);
    const charge = {
      id: `ch_${randomUUID()}`,
      idempotencyKey: randomUUID(),
      cardId: c.id,
      account: 'acct_1',
      amount: 900,
      paid: true,
      error: null,
    };
    await expect(repository.charge(charge)).resolves.toEqual(charge);
    await expect(repository.charge({ ...charge, id: `ch_${randomUUID()}`, paid: false, error: 'declined' })).resolves.toEqual(charge);
    await expect(
      repository.charge({ ...charge, id: `ch_${randomUUID()}`, idempotencyKey: randomUUID(), cardId: 'pm_none' }),
    ).rejects.toThrow(/foreign key/);
  });
});
