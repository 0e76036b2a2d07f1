import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { OrderState, PaymentProviderId } from '@tinkerdesk/contracts';
import {
  entityColumns,
  sql,
  type IdempotentCreate,
  type SqlRunner,
  type StoredAnswer,
  type TransactionManager,
} from '@tinkerdesk/persistence';
import { type DataSource, type EntityManager, type Repository } from 'typeorm';
import { COMMERCE_KEYS } from '../database/idempotency-keys.js';
import { recordCommerceEvents, type CommerceEventRecord } from '../events/commerce-events.js';
import { LatePaymentEntity } from './late-payment.entity.js';
import type { ListedLatePayment, ListedOrder, ListedOrderFields, ListedReceipt, ListedRefund, ListedReply } from './listed-order.js';
import { OrderRefundEntity } from './order-refund.entity.js';
import { OrderReplyEntity } from './order-reply.entity.js';
import { OrderEntity } from './order.entity.js';
import { PaymentSessionEntity } from './payment-session.entity.js';
import { ReceiptEntity } from './receipt.entity.js';

export type OrderRow = OrderEntity;

export type ReceiptRow = ReceiptEntity;

export type ReplyRow = OrderReplyEntity;

/** One refund of an order: pending (its amount reserved while the provider is asked) or done. */
export type RefundRow = OrderRefundEntity;

export type PaymentSessionRow = Omit<PaymentSessionEntity, 'modified'>;

/** A payment that landed on an order that could no longer take it: refunded automatically. */
export type LatePaymentRow = Omit<LatePaymentEntity, 'attemptAt'>;

export type OrderChanges = Partial<
  Pick<OrderRow, 'state' | 'failure' | 'paymentId' | 'fulfilNote' | 'paidAt' | 'fulfilledAt' | 'buyerId' | 'refundedAmount'>
>;

/** The calls made inside one transaction (the order row locked first). */
export interface OrdersTx {
  /** The transaction's manager, for another feature's rows changed with the order (OrderRequests). */
  readonly manager: TransactionManager;
  lockOrder(id: string): Promise<OrderRow | null>;
  updateOrder(id: string, changes: OrderChanges): Promise<OrderRow>;
  insertReceipt(receipt: Omit<ReceiptRow, 'number'>): Promise<ReceiptRow>;
  openSession(orderId: string): Promise<PaymentSessionRow | null>;
  insertSession(session: Omit<PaymentSessionRow, 'created'>): Promise<void>;
  setSessionStatus(id: string, status: PaymentSessionRow['status']): Promise<void>;
  /** Records a provider event; false when it was recorded before (a replay). */
  claimEvent(provider: PaymentProviderId, id: string, type: string): Promise<boolean>;
  /** Records a payment to refund; false when it was recorded before (the same payment told twice). */
  recordLatePayment(
    payment: Pick<LatePaymentRow, 'provider' | 'paymentId' | 'orderId' | 'sessionId' | 'account' | 'amount'>,
  ): Promise<boolean>;
  /** The refund of a late payment went through: answers the row when this call recorded it (once). */
  markLateRefunded(provider: PaymentProviderId, paymentId: string): Promise<LatePaymentRow | null>;
  insertReply(reply: Omit<ReplyRow, 'created'>): Promise<void>;
  /** The order's refunds, pending and done (read under the order's lock: what is reserved or refunded). */
  refundsOf(orderId: string): Promise<RefundRow[]>;
  insertRefund(refund: Omit<RefundRow, 'created'>): Promise<void>;
  /** A pending refund the provider did not make: its reservation is released. */
  releaseRefund(id: string): Promise<void>;
  /** A pending refund the provider made: done now; answers it when this call finished it (once), else null. */
  finishRefund(id: string, providerRefundId: string): Promise<RefundRow | null>;
  /** Records what happened in the outbox, in this transaction (published after commit). */
  record(...events: CommerceEventRecord[]): Promise<void>;
  /** `work` once per Idempotency-Key, the key claimed in this transaction (IdempotencyKeys.once); without a key, just `work`. */
  once<T extends StoredAnswer>(create: IdempotentCreate | undefined, work: () => Promise<T>): Promise<{ answer: T; replayed: boolean }>;
}

/** A date as the views write it (`Date.prototype.toISOString`'s text, milliseconds truncated as pg's Date has them). */
const iso = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * listedOrders' statement: an order's columns the view reads, and its receipt, replies, done refunds and
 * late payments as JSON objects with the view's keys in the view's order (ListedOrder).
 */
const LISTED_ORDERS = `SELECT o."id", o."service_id" AS "serviceId", o."seller_id" AS "sellerId", o."buyer_id" AS "buyerId",
       o."claimed_by" AS "claimedBy", o."email", o."note", o."share", o."state", o."provider", o."vendor", o."items", o."amount",
       o."currency", o."shipping", o."failure", o."refunded_amount" AS "refundedAmount", o."fulfil_note" AS "fulfilNote",
       ${iso('o."paid_at"')} AS "paidAt", ${iso('o."fulfilled_at"')} AS "fulfilledAt",
       ${iso('o."created"')} AS "created", ${iso('o."modified"')} AS "modified",
       (SELECT json_build_object('number', r."number", 'amount', r."amount", 'currency', r."currency", 'items', r."items",
                                 'email', r."email", 'sellerName', r."seller_name", 'serviceName', r."service_name",
                                 'supportEmail', r."support_email", 'paidAt', ${iso('r."paid_at"')})
          FROM "commerce"."receipt" r WHERE r."order_id" = o."id") AS "receipt",
       (SELECT json_agg(json_build_object('id', r."id", 'from', r."author_role", 'note', r."note", 'created', ${iso('r."created"')})
                        ORDER BY r."created", r."id")
          FROM "commerce"."order_reply" r WHERE r."order_id" = o."id") AS "replies",
       (SELECT json_agg(json_build_object('id', r."id", 'amount', r."amount", 'reason', r."reason",
                                          'refundedAt', ${iso('coalesce(r."refunded_at", r."created")')})
                        ORDER BY r."refunded_at", r."id")
          FROM "commerce"."order_refund" r WHERE r."order_id" = o."id" AND r."state" = 'done') AS "refunds",
       (SELECT json_agg(json_build_object('amount', r."amount", 'state', r."state", 'created', ${iso('r."created"')},
                                          'refundedAt', ${iso('r."refunded_at"')})
                        ORDER BY r."created", r."payment_id")
          FROM "commerce"."late_payment" r WHERE r."order_id" = o."id") AS "latePayments"
  FROM "commerce"."order" o WHERE o."id" = ANY($1::uuid[])`;

/** A row of LISTED_ORDERS: an order's fields with its related rows (null for none). */
type ListedRecord = ListedOrderFields & {
  receipt: ListedReceipt | null;
  replies: ListedReply[] | null;
  refunds: ListedRefund[] | null;
  latePayments: ListedLatePayment[] | null;
};

const toSession = ({ modified: _modified, ...session }: PaymentSessionEntity): PaymentSessionRow => session;

const toLatePayment = ({ attemptAt: _attemptAt, ...payment }: LatePaymentEntity): LatePaymentRow => payment;

/** The order's open payment session, through a transaction's manager or the pool's. */
async function openSessionWith(m: EntityManager, orderId: string): Promise<PaymentSessionRow | null> {
  const session = await m.getRepository(PaymentSessionEntity).findOneBy({ orderId, status: 'open' });
  return session ? toSession(session) : null;
}

async function markLateRefundedWith(db: SqlRunner, provider: PaymentProviderId, paymentId: string): Promise<LatePaymentRow | null> {
  const payment = await sql.maybeOne<LatePaymentEntity>(
    db,
    `UPDATE "commerce"."late_payment" SET "state" = 'refunded', "refunded_at" = now(), "last_error" = NULL
     WHERE "provider" = $1 AND "payment_id" = $2 AND "state" = 'refund_pending' RETURNING ${entityColumns(db, LatePaymentEntity)}`,
    [provider, paymentId],
  );
  return payment ? toLatePayment(payment) : null;
}

async function insertReplyWith(m: EntityManager, reply: Omit<ReplyRow, 'created'>): Promise<void> {
  const { id, orderId, authorId, authorRole, note } = reply;
  await m.getRepository(OrderReplyEntity).insert({ id, orderId, authorId, authorRole, note });
}

class Transaction implements OrdersTx {
  constructor(private readonly m: EntityManager) {}

  get manager(): TransactionManager {
    return this.m;
  }

  lockOrder(id: string): Promise<OrderRow | null> {
    return this.m.getRepository(OrderEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** The order is locked (lockOrder) in this transaction: the row read back is the one written. */
  async updateOrder(id: string, changes: OrderChanges): Promise<OrderRow> {
    const orders = this.m.getRepository(OrderEntity);
    await orders.update({ id }, { ...changes, modified: () => 'now()' });
    return orders.findOneByOrFail({ id });
  }

  insertReceipt(receipt: Omit<ReceiptRow, 'number'>): Promise<ReceiptRow> {
    return sql.one<ReceiptEntity>(
      this.m,
      `INSERT INTO "commerce"."receipt" ("order_id", "number", "amount", "currency", "items", "email", "seller_name", "service_name", "support_email", "paid_at")
       VALUES ($1, 'R-' || to_char($9::timestamptz AT TIME ZONE 'UTC', 'YYYY') || '-' || lpad(nextval('"commerce"."receipt_number_seq"')::text, 6, '0'),
               $2, $3, $4::jsonb, $5, $6, $7, $8, $9)
       RETURNING ${entityColumns(this.m, ReceiptEntity)}`,
      [
        receipt.orderId,
        receipt.amount,
        receipt.currency,
        JSON.stringify(receipt.items),
        receipt.email,
        receipt.sellerName,
        receipt.serviceName,
        receipt.supportEmail,
        receipt.paidAt,
      ],
    );
  }

  openSession(orderId: string): Promise<PaymentSessionRow | null> {
    return openSessionWith(this.m, orderId);
  }

  async insertSession(s: Omit<PaymentSessionRow, 'created'>): Promise<void> {
    const { id, orderId, provider, account, url, status, amount } = s;
    await this.m.getRepository(PaymentSessionEntity).insert({ id, orderId, provider, account, url, status, amount });
  }

  async setSessionStatus(id: string, status: PaymentSessionRow['status']): Promise<void> {
    await this.m.getRepository(PaymentSessionEntity).update({ id }, { status, modified: () => 'now()' });
  }

  async recordLatePayment(
    p: Pick<LatePaymentRow, 'provider' | 'paymentId' | 'orderId' | 'sessionId' | 'account' | 'amount'>,
  ): Promise<boolean> {
    const inserted = await sql.execute(
      this.m,
      `INSERT INTO "commerce"."late_payment" ("provider", "payment_id", "order_id", "session_id", "account", "amount")
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [p.provider, p.paymentId, p.orderId, p.sessionId, p.account, p.amount],
    );
    return inserted === 1;
  }

  markLateRefunded(provider: PaymentProviderId, paymentId: string): Promise<LatePaymentRow | null> {
    return markLateRefundedWith(this.m, provider, paymentId);
  }

  insertReply(reply: Omit<ReplyRow, 'created'>): Promise<void> {
    return insertReplyWith(this.m, reply);
  }

  once<T extends StoredAnswer>(create: IdempotentCreate | undefined, work: () => Promise<T>): Promise<{ answer: T; replayed: boolean }> {
    return COMMERCE_KEYS.once(this.m, create, work);
  }

  refundsOf(orderId: string): Promise<RefundRow[]> {
    return this.m.getRepository(OrderRefundEntity).find({ where: { orderId }, order: { created: 'ASC', id: 'ASC' } });
  }

  async insertRefund(r: Omit<RefundRow, 'created'>): Promise<void> {
    const { id, orderId, amount, reason, state, providerRefundId, refundedAt } = r;
    await this.m.getRepository(OrderRefundEntity).insert({ id, orderId, amount, reason, state, providerRefundId, refundedAt });
  }

  async releaseRefund(id: string): Promise<void> {
    await this.m.getRepository(OrderRefundEntity).delete({ id, state: 'pending' });
  }

  async finishRefund(id: string, providerRefundId: string): Promise<RefundRow | null> {
    const done = await sql.maybeOne<OrderRefundEntity>(
      this.m,
      `UPDATE "commerce"."order_refund" SET "state" = 'done', "provider_refund_id" = $2, "refunded_at" = now()
       WHERE "id" = $1 AND "state" = 'pending' RETURNING ${entityColumns(this.m, OrderRefundEntity)}`,
      [id, providerRefundId],
    );
    return done ?? null;
  }

  record(...events: CommerceEventRecord[]): Promise<void> {
    return recordCommerceEvents(this.m, events);
  }

  async claimEvent(provider: PaymentProviderId, id: string, type: string): Promise<boolean> {
    const inserted = await sql.execute(
      this.m,
      `INSERT INTO "commerce"."provider_event" ("provider", "id", "type") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [provider, id, type],
    );
    return inserted === 1;
  }
}

/** The only place that touches orders, their receipts, replies, payment sessions, provider events and idempotency keys. */
@Injectable()
export class OrdersRepository {
  private readonly orders: Repository<OrderEntity>;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.orders = db.getRepository(OrderEntity);
  }

  /** Runs `work` in one transaction (READ COMMITTED; rows locked when it reads them). */
  inTransaction<T>(work: (tx: OrdersTx) => Promise<T>): Promise<T> {
    return this.db.transaction((manager) => work(new Transaction(manager)));
  }

  /**
   * Inserts an order with what it implies (`events`, recorded in the outbox) in one transaction; under
   * an Idempotency-Key (`idempotent`), once: the key is claimed in the same transaction, and a retry
   * answers the order the first request placed.
   */
  async insertOrder(
    order: Omit<
      OrderRow,
      'created' | 'modified' | 'failure' | 'paymentId' | 'fulfilNote' | 'paidAt' | 'fulfilledAt' | 'refundedAmount' | 'claimedBy'
    > & { claimedBy?: string | null },
    events: CommerceEventRecord[] = [],
    idempotent?: IdempotentCreate,
  ): Promise<OrderRow> {
    const {
      id,
      serviceId,
      productId,
      sellerId,
      buyerId,
      claimedBy = null,
      email,
      note,
      share,
      state,
      provider,
      account,
      vendor,
      items,
      amount,
      currency,
      shipping,
    } = order;
    return this.db.transaction(async (m) => {
      const orders = m.getRepository(OrderEntity);
      const placed = await COMMERCE_KEYS.once(m, idempotent, async () => {
        await orders.insert({
          id,
          serviceId,
          productId,
          sellerId,
          buyerId,
          claimedBy,
          email,
          note,
          share,
          state,
          provider,
          account,
          vendor,
          items,
          amount,
          currency,
          shipping,
        });
        await recordCommerceEvents(m, events);
        return id;
      });
      return orders.findOneByOrFail({ id: placed.answer });
    });
  }

  findOrder(id: string): Promise<OrderRow | null> {
    return this.orders.findOneBy({ id });
  }

  findOrderByPayment(paymentId: string): Promise<OrderRow | null> {
    return this.orders.findOneBy({ paymentId });
  }

  /**
   * A page of the seller's or buyer's orders (newest first): how many match, and the page's orders (their
   * ids and services), for listedOrders. The page size is any validated integer.
   */
  async orderPage(
    who: { sellerId: string } | { buyerId: string },
    state: OrderState | readonly OrderState[] | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; orders: { id: string; serviceId: string }[] }> {
    const states = state === undefined ? null : typeof state === 'string' ? [state] : [...state];
    // A buyer's orders: placed signed in, or placed signed out with the address the account verified.
    const party = 'sellerId' in who ? `o."seller_id" = $1` : `(o."buyer_id" = $1 OR o."claimed_by" = $1)`;
    // The filter twice rather than a CTE read twice: a CTE used twice is materialized, every matching order
    // read only to be counted; this way the count reads the index alone and the page its 20 rows.
    const matching = `${party} AND ($2::text[] IS NULL OR o."state" = ANY($2::text[]))`;
    // PostgreSQL plans this statement on every run: a generic plan cannot know OFFSET $3 LIMIT $4 (it takes
    // a tenth of the rows) nor how many orders $1 has (it would count a big seller's orders by a sequential
    // scan). One table and three columns, its planning is cheap (docs/testing.md, "The order list's page").
    const rows = await sql.rows<{ total: number; id: string | null; serviceId: string | null }>(
      this.db,
      {
        name: 'sellerId' in who ? 'commerce_order_page_seller' : 'commerce_order_page_buyer',
        text: `SELECT t."total", p."id", p."service_id" AS "serviceId"
         FROM (SELECT count(*)::int AS "total" FROM "commerce"."order" o WHERE ${matching}) t
         LEFT JOIN (SELECT o."id", o."service_id", o."created" FROM "commerce"."order" o WHERE ${matching}
                     ORDER BY o."created" DESC, o."id" ASC OFFSET $3 LIMIT $4) p ON true
        ORDER BY p."created" DESC, p."id" ASC`,
      },
      ['sellerId' in who ? who.sellerId : who.buyerId, states, offset, limit],
    );
    const orders = rows.flatMap(({ id, serviceId }) => (id === null || serviceId === null ? [] : [{ id, serviceId }]));
    return { total: rows[0]?.total ?? 0, orders };
  }

  /**
   * The orders of a page (orderPage's ids), in the ids' order, each with what its view shows (receipt,
   * replies, done refunds, late payments). One statement whatever the page, party or size: PostgreSQL
   * keeps its generic plan (by the primary key) after five runs and plans it no more.
   */
  async listedOrders(ids: readonly string[]): Promise<ListedOrder[]> {
    if (ids.length === 0) return [];
    const found = await sql.rows<ListedRecord>(this.db, { name: 'commerce_order_list_rows', text: LISTED_ORDERS }, [ids]);
    const byId = new Map(found.map((r) => [r.id, r]));
    // An id not found (none is: orders are never deleted) is left out.
    return ids.flatMap((id) => {
      const record = byId.get(id);
      if (!record) return [];
      const { receipt, replies, refunds, latePayments, ...order } = record;
      return [{ order, receipt, replies: replies ?? [], refunds: refunds ?? [], latePayments: latePayments ?? [] }];
    });
  }

  /**
   * Gives the orders placed signed out with this address, and not given to an account yet, to the
   * account that verified it (in the caller's transaction); answers how many. Running it again
   * changes nothing: an order is given once.
   */
  async claimByEmail(manager: TransactionManager, userId: string, email: string): Promise<number> {
    const result = await manager
      .getRepository(OrderEntity)
      .createQueryBuilder()
      .update()
      .set({ claimedBy: userId })
      .where('buyer_id IS NULL AND claimed_by IS NULL AND email = :email', { email: email.trim().toLowerCase() })
      .execute();
    return result.affected ?? 0;
  }

  receipt(orderId: string): Promise<ReceiptRow | null> {
    return this.db.getRepository(ReceiptEntity).findOneBy({ orderId });
  }

  replies(orderId: string): Promise<ReplyRow[]> {
    return this.db.getRepository(OrderReplyEntity).find({ where: { orderId }, order: { created: 'ASC', id: 'ASC' } });
  }

  /** The order's refunds the provider made, in the order they were made. */
  refunds(orderId: string): Promise<RefundRow[]> {
    return this.db.getRepository(OrderRefundEntity).find({ where: { orderId, state: 'done' }, order: { refundedAt: 'ASC', id: 'ASC' } });
  }

  async latePayments(orderId: string): Promise<LatePaymentRow[]> {
    const rows = await this.db.getRepository(LatePaymentEntity).find({ where: { orderId }, order: { created: 'ASC', paymentId: 'ASC' } });
    return rows.map(toLatePayment);
  }

  /**
   * Takes the lease of up to `limit` late payments whose refund is still to make and was not tried
   * in the last `leaseSeconds` (another replica, or the request that recorded it, may be at it):
   * of two replicas at once, each gets other rows. The refund itself happens after this returns.
   */
  async leaseLateRefunds(leaseSeconds: number, limit: number): Promise<LatePaymentRow[]> {
    const rows = await sql.rows<LatePaymentEntity>(
      this.db,
      `UPDATE "commerce"."late_payment" SET "attempt_at" = now(), "attempts" = "attempts" + 1
       WHERE ("provider", "payment_id") IN (
         SELECT "provider", "payment_id" FROM "commerce"."late_payment"
          WHERE "state" = 'refund_pending' AND "attempt_at" <= now() - make_interval(secs => $1)
          ORDER BY "attempt_at" LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING ${entityColumns(this.db, LatePaymentEntity)}`,
      [leaseSeconds, limit],
    );
    return rows.map(toLatePayment);
  }

  /** The refund of a late payment went through: answers the row when this call recorded it (once). */
  markLateRefunded(provider: PaymentProviderId, paymentId: string): Promise<LatePaymentRow | null> {
    return markLateRefundedWith(this.db, provider, paymentId);
  }

  /** The refund of a late payment failed this time: the reason is kept, a later lease tries again. */
  async noteLateRefundError(provider: PaymentProviderId, paymentId: string, error: string): Promise<void> {
    await this.db.getRepository(LatePaymentEntity).update({ provider, paymentId }, { lastError: error.slice(0, 500) });
  }

  insertReply(reply: Omit<ReplyRow, 'created'>): Promise<void> {
    return insertReplyWith(this.db.manager, reply);
  }

  /** The order's open payment session (at most one: a unique index), read without a lock. */
  openSessionOf(orderId: string): Promise<PaymentSessionRow | null> {
    return openSessionWith(this.db.manager, orderId);
  }

  async findSession(id: string): Promise<PaymentSessionRow | null> {
    const session = await this.db.getRepository(PaymentSessionEntity).findOneBy({ id });
    return session ? toSession(session) : null;
  }

  /** How many orders refer to a product, through the pool or a transaction's manager (a product's deletion). */
  countOrdersOfProduct(productId: string, manager: TransactionManager = this.db.manager): Promise<number> {
    return manager.getRepository(OrderEntity).countBy({ productId });
  }

  /**
   * Pay, complete and refund under an Idempotency-Key: they ask a provider, so the key is claimed
   * outside a transaction (IdempotencyKeys.outside: the wait, the lease, the release on failure).
   */
  outside<T extends StoredAnswer>(create: IdempotentCreate | undefined, work: () => Promise<T>): Promise<{ answer: T; replayed: boolean }> {
    return COMMERCE_KEYS.outside(this.db, create, work);
  }
}
