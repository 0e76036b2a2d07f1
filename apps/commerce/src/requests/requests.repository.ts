import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RequestState } from '@tinkerdesk/contracts';
import type { IdempotentCreate, TransactionManager } from '@tinkerdesk/persistence';
import type { DataSource, EntityManager, Repository } from 'typeorm';
import { COMMERCE_KEYS } from '../database/idempotency-keys.js';
import { recordCommerceEvents, type CommerceEventRecord } from '../events/commerce-events.js';
import { PaymentRequestEntity } from './payment-request.entity.js';

export type RequestRow = PaymentRequestEntity;

type MoveFields = { orderId?: string; payerId?: string | null; declineReason?: string | null };

/** The columns a move sets: the state, the modified time, and the order, payer and decline reason when given (else kept). */
function moved(to: RequestState, fields: MoveFields) {
  return {
    state: to,
    modified: () => 'now()',
    ...(fields.orderId != null ? { orderId: fields.orderId } : {}),
    ...(fields.payerId != null ? { payerId: fields.payerId } : {}),
    ...(fields.declineReason != null ? { declineReason: fields.declineReason } : {}),
  };
}

/** The only place that touches payment requests. */
@Injectable()
export class RequestsRepository {
  private readonly requests: Repository<PaymentRequestEntity>;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.requests = db.getRepository(PaymentRequestEntity);
  }

  /** Inserts an open request with what it implies (`events`, recorded in the outbox) in one transaction. */
  async insert(
    r: Omit<RequestRow, 'created' | 'modified' | 'state' | 'orderId' | 'declineReason'>,
    events: CommerceEventRecord[] = [],
    idempotent?: IdempotentCreate,
  ): Promise<RequestRow> {
    const { id, sellerId, serviceId, productId, product, email, note, keyHash, payerId, expires } = r;
    return this.db.transaction(async (m) => {
      const requests = m.getRepository(PaymentRequestEntity);
      const sent = await COMMERCE_KEYS.once(m, idempotent, async () => {
        await requests.insert({ id, sellerId, serviceId, productId, product, email, note, keyHash, payerId, expires, state: 'open' });
        await recordCommerceEvents(m, events);
        return id;
      });
      return requests.findOneByOrFail({ id: sent.answer });
    });
  }

  find(id: string): Promise<RequestRow | null> {
    return this.requests.findOneBy({ id });
  }

  /**
   * Moves the request from `from` to `to` only if it is still in `from` (of two answers at once,
   * one wins); answers the row after the change, or null. `events` (what happened) are recorded
   * in the outbox in the same transaction, when the move is made.
   */
  async move(
    id: string,
    from: RequestState,
    to: RequestState,
    fields: MoveFields = {},
    events: CommerceEventRecord[] = [],
  ): Promise<RequestRow | null> {
    // The update and the read of the row it left run in one transaction: the row stays locked between them.
    return this.db.transaction(async (m) => {
      const done = await this.moveWith(m, id, from, to, fields);
      if (done) await recordCommerceEvents(m, events);
      return done;
    });
  }

  private async moveWith(
    m: EntityManager,
    id: string,
    from: RequestState,
    to: RequestState,
    fields: MoveFields,
  ): Promise<RequestRow | null> {
    const { affected } = await m.getRepository(PaymentRequestEntity).update({ id, state: from }, moved(to, fields));
    return affected === 1 ? m.getRepository(PaymentRequestEntity).findOneByOrFail({ id }) : null;
  }

  /**
   * Runs `work` with the request's row locked (SELECT ... FOR UPDATE), so answers to one request run
   * one after another; `move` changes its state in the same transaction, and records `events` with it.
   */
  locked<T>(
    id: string,
    work: (
      row: RequestRow,
      move: (to: RequestState, fields?: MoveFields, events?: CommerceEventRecord[]) => Promise<RequestRow>,
    ) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction(async (m) => {
      const requests = m.getRepository(PaymentRequestEntity);
      const row = await requests.findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!row) throw new Error(`payment request ${id} vanished`);
      return work(row, async (to, fields = {}, events = []) => {
        await requests.update({ id }, moved(to, fields));
        await recordCommerceEvents(m, events);
        return requests.findOneByOrFail({ id });
      });
    });
  }

  /** The id of the request an order answers, or null. */
  async idOfOrder(orderId: string): Promise<string | null> {
    return (await this.requests.findOne({ select: { id: true }, where: { orderId } }))?.id ?? null;
  }

  /** The request an order answers, locked in the order's transaction (after the order's lock); null when none. */
  async lockOfOrder(manager: TransactionManager, orderId: string): Promise<{ id: string; state: RequestState } | null> {
    const request = await manager
      .getRepository(PaymentRequestEntity)
      .findOne({ select: { id: true, state: true }, where: { orderId }, lock: { mode: 'pessimistic_write' } });
    return request ? { id: request.id, state: request.state } : null;
  }

  /** In the order's transaction: the accepted request this order answers moves to `to` (paid, or cancelled with it). */
  async settleOfOrder(manager: TransactionManager, orderId: string, to: 'paid' | 'cancelled'): Promise<void> {
    await manager.getRepository(PaymentRequestEntity).update({ orderId, state: 'accepted' }, { state: to, modified: () => 'now()' });
  }

  async list(
    who: { sellerId: string } | { email: string; payerId: string },
    offset: number,
    limit: number,
  ): Promise<{ rows: RequestRow[]; total: number }> {
    const query = this.requests.createQueryBuilder('r');
    if ('sellerId' in who) query.where('r.sellerId = :sellerId', { sellerId: who.sellerId });
    else query.where('(lower(r.email) = lower(:email) OR r.payerId = :payerId)', { email: who.email, payerId: who.payerId });
    const [rows, total] = await query.orderBy('r.created', 'DESC').addOrderBy('r.id', 'ASC').offset(offset).limit(limit).getManyAndCount();
    return { rows, total };
  }
}
