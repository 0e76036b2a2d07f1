import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COMMERCE_EVENTS } from '@tinkerdesk/contracts';
import { sql, type TransactionManager } from '@tinkerdesk/persistence';
import { staysBlocked, type RepositoryDatabase } from '@tinkerdesk/testing';
import { commerceEvent } from '../events/commerce-events.js';
import { PendingMailRepository } from '../events/pending-mail.repository.js';
import { RequestsRepository, type RequestRow } from './requests.repository.js';
import { commerceDatabase, insertOrder, insertService, outboxCount } from '../../test/repository-database.js';

let db: RepositoryDatabase;
let repository: RequestsRepository;
let serviceId: string;
const sellerId = randomUUID();

beforeAll(async () => {
  db = await commerceDatabase();
  repository = new RequestsRepository(db.dataSource);
  serviceId = await insertService(db, sellerId);
});

afterAll(() => db?.close());

function request(fields: Partial<RequestRow> = {}): Parameters<RequestsRepository['insert']>[0] {
  const id = randomUUID();
  return {
    id,
    sellerId,
    serviceId,
    productId: null,
    product: { id: randomUUID(), name: 'Poster', description: 'A1', price: 1250, currency: 'USD' },
    email: 'Payer@Example.test',
    note: 'for the fair',
    keyHash: `hash-${id}`,
    payerId: null,
    expires: new Date('2030-01-01T00:00:00Z'),
    ...fields,
  };
}

const order = () => insertOrder(db, { serviceId, sellerId });

describe('payment requests', () => {
  it('inserts an open request and reads back every field', async () => {
    const r = request({ payerId: randomUUID() });
    const inserted = await repository.insert(r);
    expect(inserted).toEqual({
      ...r,
      state: 'open',
      orderId: null,
      declineReason: null,
      created: expect.any(Date),
      modified: expect.any(Date),
    });
    await expect(repository.find(r.id)).resolves.toEqual(inserted);
    await expect(repository.find(randomUUID())).resolves.toBeNull();
  });

  it('moves only from the expected state, keeping order and payer unless given, with its events in the outbox', async () => {
    const payer = randomUUID();
    const r = await repository.insert(request({ payerId: payer }));
    const event = commerceEvent(
      COMMERCE_EVENTS.requestDeclined,
      { type: 'request', id: r.id },
      { request: { id: r.id, sellerId, email: r.email, productName: 'Poster', price: 1250 }, payerId: payer },
    );
    const declined = await repository.move(r.id, 'open', 'declined', { payerId: null, declineReason: 'paid in cash' }, [event]);
    expect(declined).toMatchObject({ id: r.id, state: 'declined', payerId: payer, orderId: null, declineReason: 'paid in cash' });
    expect(declined!.modified.getTime()).toBeGreaterThanOrEqual(r.modified.getTime());
    await expect(outboxCount(db, r.id)).resolves.toBe(1);
    // The second answer loses: no change, no event.
    await expect(repository.move(r.id, 'open', 'cancelled', {}, [event])).resolves.toBeNull();
    await expect(outboxCount(db, r.id)).resolves.toBe(1);
    await expect(repository.find(r.id)).resolves.toMatchObject({ state: 'declined' });
  });

  it('inserts a request with its event and the event’s secret email (pending_mail) in one transaction', async () => {
    const r = request();
    const mail = { to: 'payer@example.test', subject: 'Pay', text: 'the link with its key' };
    const sent = commerceEvent(
      COMMERCE_EVENTS.requestSent,
      { type: 'request', id: r.id },
      { request: { id: r.id, sellerId, email: r.email, productName: 'Poster', price: 1250 }, payerId: null, from: 'Ada' },
      mail,
    );
    await repository.insert(r, [sent]);
    await expect(outboxCount(db, r.id)).resolves.toBe(1);
    const [row] = await sql.rows<{ id: string; payload: unknown; message: unknown }>(
      db.dataSource,
      `SELECT e."id", e."payload", m."message" FROM "commerce"."outbox_event" e JOIN "commerce"."pending_mail" m ON m."event_id" = e."id"
       WHERE e."aggregate_id" = $1`,
      [r.id],
    );
    expect(row?.message).toEqual(mail);
    expect(JSON.stringify(row?.payload)).not.toContain('the link with its key');
    const pending = new PendingMailRepository(db.dataSource);
    await expect(pending.find(row!.id)).resolves.toEqual(mail);
    await pending.delete(row!.id);
    await expect(pending.find(row!.id)).resolves.toBeNull();
  });

  it('moves the request an order answers in the order’s transaction: locked, paid or cancelled only from accepted', async () => {
    const r = await repository.insert(request());
    const orderId = await order();
    const inTx = <T>(work: (m: TransactionManager) => Promise<T>) => db.dataSource.transaction(work);
    await expect(inTx((m) => repository.lockOfOrder(m, orderId))).resolves.toBeNull();
    await repository.move(r.id, 'open', 'accepted', { orderId });
    await expect(inTx((m) => repository.lockOfOrder(m, orderId))).resolves.toEqual({ id: r.id, state: 'accepted' });
    await inTx((m) => repository.settleOfOrder(m, orderId, 'paid'));
    await expect(repository.find(r.id)).resolves.toMatchObject({ state: 'paid' });
    await inTx((m) => repository.settleOfOrder(m, orderId, 'cancelled'));
    await expect(repository.find(r.id)).resolves.toMatchObject({ state: 'paid' });
  });

  it('holds the request of an order locked for the order’s transaction (FOR UPDATE)', async () => {
    const r = await repository.insert(request());
    const orderId = await order();
    await repository.move(r.id, 'open', 'accepted', { orderId });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const locked = new Promise<void>((resolve) => (entered = resolve));
    const work = db.dataSource.transaction(async (m) => {
      await repository.lockOfOrder(m, orderId);
      entered();
      await held;
    });
    await locked;
    const competing = repository.move(r.id, 'accepted', 'cancelled');
    await expect(staysBlocked(competing)).resolves.toBe(true);
    release();
    await work;
    await expect(competing).resolves.toMatchObject({ state: 'cancelled' });
  });

  it('refuses a state outside the list (check), one order for two requests (unique) and a decline reason over 500 characters', async () => {
    const r = await repository.insert(request());
    await expect(repository.move(r.id, 'open', 'declined', { declineReason: 'x'.repeat(501) })).rejects.toThrow(/decline_reason_length/);
    await expect(repository.move(r.id, 'open', 'lost' as never)).rejects.toThrow(/check/);
    const orderId = await order();
    await expect(repository.move(r.id, 'open', 'accepted', { orderId })).resolves.toMatchObject({ orderId });
    const other = await repository.insert(request());
    await expect(repository.move(other.id, 'open', 'accepted', { orderId })).rejects.toThrow(/duplicate key/);
    await expect(repository.insert(request({ serviceId: randomUUID() }))).rejects.toThrow(/foreign key/);
  });

  it('locks the row while work runs (FOR UPDATE): another move waits, then sees the new state', async () => {
    const r = await repository.insert(request());
    const orderId = await order();
    const payer = randomUUID();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const work = repository.locked(r.id, async (row, move) => {
      expect(row).toMatchObject({ id: r.id, state: 'open' });
      entered();
      await held;
      return move('accepted', { orderId, payerId: payer });
    });
    await inside;
    const competing = repository.move(r.id, 'open', 'cancelled');
    await expect(staysBlocked(competing)).resolves.toBe(true);
    release();
    await expect(work).resolves.toMatchObject({ state: 'accepted', orderId, payerId: payer });
    await expect(competing).resolves.toBeNull();
  });

  it('throws when the locked request does not exist, and rolls back what work did when it throws', async () => {
    await expect(repository.locked(randomUUID(), async () => 1)).rejects.toThrow(/vanished/);
    const r = await repository.insert(request());
    await expect(
      repository.locked(r.id, async (_row, move) => {
        await move('cancelled');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await expect(repository.find(r.id)).resolves.toMatchObject({ state: 'open' });
  });

  it('lists a seller’s requests, or a payer’s by email (any case) or account, newest first with the total', async () => {
    const seller = randomUUID();
    const payer = randomUUID();
    const email = `${randomUUID()}@example.test`;
    const a = await repository.insert(request({ sellerId: seller, email: email.toUpperCase() }));
    const b = await repository.insert(request({ sellerId: seller, payerId: payer }));
    const c = await repository.insert(request({ sellerId: seller }));
    const bySeller = await repository.list({ sellerId: seller }, 0, 2);
    expect(bySeller.total).toBe(3);
    expect(bySeller.rows.map((r) => r.id)).toEqual([c.id, b.id]);
    await expect(repository.list({ sellerId: seller }, 2, 2)).resolves.toMatchObject({ rows: [{ id: a.id }], total: 3 });
    const byPayer = await repository.list({ email, payerId: payer }, 0, 10);
    expect(byPayer.total).toBe(2);
    expect(byPayer.rows.map((r) => r.id)).toEqual([b.id, a.id]);
  });
});
