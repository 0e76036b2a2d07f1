import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { OrderItem, OrderState, PaymentProviderId, RequestState, ShippingChoice, Vendor } from '@tinkerdesk/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { recordCommerceEvents, type CommerceEventRecord } from '../events/commerce-events.js';

export interface OrderRow {
  id: string;
  serviceId: string;
  productId: string | null;
  sellerId: string;
  buyerId: string | null;
  email: string;
  note: string;
  share: boolean;
  state: OrderState;
  provider: PaymentProviderId;
  account: string;
  vendor: Vendor;
  items: OrderItem[];
  amount: number;
  currency: 'USD';
  shipping: ShippingChoice | null;
  failure: string | null;
  paymentId: string | null;
  fulfilNote: string | null;
  paidAt: Date | null;
  fulfilledAt: Date | null;
  created: Date;
  modified: Date;
}

export interface ReceiptRow {
  orderId: string;
  number: string;
  amount: number;
  currency: 'USD';
  items: OrderItem[];
  email: string;
  sellerName: string;
  serviceName: string;
  supportEmail: string | null;
  paidAt: Date;
}

export interface ReplyRow {
  id: string;
  orderId: string;
  authorId: string;
  authorRole: 'buyer' | 'seller';
  note: string;
  created: Date;
}

export interface PaymentSessionRow {
  id: string;
  orderId: string;
  provider: PaymentProviderId;
  account: string;
  url: string;
  status: 'open' | 'complete' | 'expired';
  amount: number;
  created: Date;
}

/** A payment that landed on an order that could no longer take it: refunded automatically. */
export interface LatePaymentRow {
  provider: PaymentProviderId;
  paymentId: string;
  orderId: string;
  sessionId: string;
  account: string;
  amount: number;
  state: 'refund_pending' | 'refunded';
  attempts: number;
  lastError: string | null;
  refundedAt: Date | null;
  created: Date;
}

/** What one Idempotency-Key holds: nothing yet (claimed now), a stored answer, or a request still running. */
export type KeyClaim = { state: 'claimed' } | { state: 'done'; response: unknown } | { state: 'busy' } | { state: 'mismatch' };

export type OrderChanges = Partial<Pick<OrderRow, 'state' | 'failure' | 'paymentId' | 'fulfilNote' | 'paidAt' | 'fulfilledAt' | 'buyerId'>>;

/** The calls made inside one transaction (the order row locked first). */
export interface OrdersTx {
  lockOrder(id: string): Promise<OrderRow | null>;
  updateOrder(id: string, changes: OrderChanges): Promise<OrderRow>;
  insertReceipt(receipt: Omit<ReceiptRow, 'number'>): Promise<ReceiptRow>;
  openSession(orderId: string): Promise<PaymentSessionRow | null>;
  insertSession(session: Omit<PaymentSessionRow, 'created'>): Promise<void>;
  setSessionStatus(id: string, status: PaymentSessionRow['status']): Promise<void>;
  /** Records a provider event; false when it was recorded before (a replay). */
  claimEvent(provider: PaymentProviderId, id: string, type: string): Promise<boolean>;
  /** The payment request this order answers (if any) is paid now: accepted → paid (request-states.ts). */
  markRequestPaid(orderId: string): Promise<void>;
  /**
   * The payment request this order answers, locked (after the order: the order's lock is always
   * taken first); null when the order answers none.
   */
  lockRequestOf(orderId: string): Promise<{ id: string; state: RequestState } | null>;
  /** The payment request this order answers is withdrawn with it: accepted → cancelled. */
  cancelRequestOf(orderId: string): Promise<void>;
  /** Records a payment to refund; false when it was recorded before (the same payment told twice). */
  recordLatePayment(
    payment: Pick<LatePaymentRow, 'provider' | 'paymentId' | 'orderId' | 'sessionId' | 'account' | 'amount'>,
  ): Promise<boolean>;
  /** The refund of a late payment went through: answers the row when this call recorded it (once). */
  markLateRefunded(provider: PaymentProviderId, paymentId: string): Promise<LatePaymentRow | null>;
  insertReply(reply: Omit<ReplyRow, 'created'>): Promise<void>;
  /** Records what happened in the outbox, in this transaction (published after commit). */
  record(...events: CommerceEventRecord[]): Promise<void>;
}

const ORDER_COLUMNS: Record<keyof OrderRow, string> = {
  id: 'id',
  serviceId: 'service_id',
  productId: 'product_id',
  sellerId: 'seller_id',
  buyerId: 'buyer_id',
  email: 'email',
  note: 'note',
  share: 'share',
  state: 'state',
  provider: 'provider',
  account: 'account',
  vendor: 'vendor',
  items: 'items',
  amount: 'amount',
  currency: 'currency',
  shipping: 'shipping',
  failure: 'failure',
  paymentId: 'payment_id',
  fulfilNote: 'fulfil_note',
  paidAt: 'paid_at',
  fulfilledAt: 'fulfilled_at',
  created: 'created',
  modified: 'modified',
};

function toOrder(raw: Record<string, unknown>): OrderRow {
  const row = {} as Record<string, unknown>;
  for (const [field, column] of Object.entries(ORDER_COLUMNS)) row[field] = raw[column];
  return row as unknown as OrderRow;
}

const toReceipt = (r: Record<string, unknown>): ReceiptRow => ({
  orderId: r.order_id as string,
  number: r.number as string,
  amount: r.amount as number,
  currency: r.currency as 'USD',
  items: r.items as OrderItem[],
  email: r.email as string,
  sellerName: r.seller_name as string,
  serviceName: r.service_name as string,
  supportEmail: (r.support_email as string | null) ?? null,
  paidAt: r.paid_at as Date,
});

const toSession = (r: Record<string, unknown>): PaymentSessionRow => ({
  id: r.id as string,
  orderId: r.order_id as string,
  provider: r.provider as PaymentProviderId,
  account: r.account as string,
  url: r.url as string,
  status: r.status as PaymentSessionRow['status'],
  amount: r.amount as number,
  created: r.created as Date,
});

const toLatePayment = (r: Record<string, unknown>): LatePaymentRow => ({
  provider: r.provider as PaymentProviderId,
  paymentId: r.payment_id as string,
  orderId: r.order_id as string,
  sessionId: r.session_id as string,
  account: r.account as string,
  amount: r.amount as number,
  state: r.state as LatePaymentRow['state'],
  attempts: r.attempts as number,
  lastError: (r.last_error as string | null) ?? null,
  refundedAt: (r.refunded_at as Date | null) ?? null,
  created: r.created as Date,
});

/** UPDATE ... RETURNING through TypeORM's query answers [rows, count]. */
function returned(result: unknown): Array<Record<string, unknown>> {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Array<Record<string, unknown>>;
}

/** The order's open payment session, through a transaction's manager or the pool. */
async function openSessionWith(runner: Pick<EntityManager, 'query'>, orderId: string): Promise<PaymentSessionRow | null> {
  const rows = (await runner.query(`SELECT * FROM "commerce"."payment_session" WHERE "order_id" = $1 AND "status" = 'open'`, [
    orderId,
  ])) as Array<Record<string, unknown>>;
  return rows[0] ? toSession(rows[0]) : null;
}

async function markLateRefundedWith(
  runner: Pick<EntityManager, 'query'>,
  provider: PaymentProviderId,
  paymentId: string,
): Promise<LatePaymentRow | null> {
  const rows = returned(
    await runner.query(
      `UPDATE "commerce"."late_payment" SET "state" = 'refunded', "refunded_at" = now(), "last_error" = NULL
       WHERE "provider" = $1 AND "payment_id" = $2 AND "state" = 'refund_pending' RETURNING *`,
      [provider, paymentId],
    ),
  );
  return rows[0] ? toLatePayment(rows[0]) : null;
}

async function insertReplyWith(runner: Pick<EntityManager, 'query'>, reply: Omit<ReplyRow, 'created'>): Promise<void> {
  await runner.query(
    `INSERT INTO "commerce"."order_reply" ("id", "order_id", "author_id", "author_role", "note") VALUES ($1, $2, $3, $4, $5)`,
    [reply.id, reply.orderId, reply.authorId, reply.authorRole, reply.note],
  );
}

class Transaction implements OrdersTx {
  constructor(private readonly m: EntityManager) {}

  async lockOrder(id: string): Promise<OrderRow | null> {
    const rows = (await this.m.query(`SELECT * FROM "commerce"."order" WHERE "id" = $1 FOR UPDATE`, [id])) as Array<
      Record<string, unknown>
    >;
    return rows[0] ? toOrder(rows[0]) : null;
  }

  async updateOrder(id: string, changes: OrderChanges): Promise<OrderRow> {
    const sets: string[] = [];
    const values: unknown[] = [id];
    for (const [field, value] of Object.entries(changes)) {
      values.push(value);
      sets.push(`"${ORDER_COLUMNS[field as keyof OrderRow]}" = $${values.length}`);
    }
    const rows = returned(
      await this.m.query(`UPDATE "commerce"."order" SET ${[...sets, `"modified" = now()`].join(', ')} WHERE "id" = $1 RETURNING *`, values),
    );
    return toOrder(rows[0] as Record<string, unknown>);
  }

  async insertReceipt(receipt: Omit<ReceiptRow, 'number'>): Promise<ReceiptRow> {
    const rows = (await this.m.query(
      `INSERT INTO "commerce"."receipt" ("order_id", "number", "amount", "currency", "items", "email", "seller_name", "service_name", "support_email", "paid_at")
       VALUES ($1, 'R-' || to_char($9::timestamptz AT TIME ZONE 'UTC', 'YYYY') || '-' || lpad(nextval('"commerce"."receipt_number_seq"')::text, 6, '0'),
               $2, $3, $4::jsonb, $5, $6, $7, $8, $9)
       RETURNING *`,
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
    )) as Array<Record<string, unknown>>;
    return toReceipt(rows[0] as Record<string, unknown>);
  }

  openSession(orderId: string): Promise<PaymentSessionRow | null> {
    return openSessionWith(this.m, orderId);
  }

  async insertSession(s: Omit<PaymentSessionRow, 'created'>): Promise<void> {
    await this.m.query(
      `INSERT INTO "commerce"."payment_session" ("id", "order_id", "provider", "account", "url", "status", "amount") VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [s.id, s.orderId, s.provider, s.account, s.url, s.status, s.amount],
    );
  }

  async setSessionStatus(id: string, status: PaymentSessionRow['status']): Promise<void> {
    await this.m.query(`UPDATE "commerce"."payment_session" SET "status" = $2, "modified" = now() WHERE "id" = $1`, [id, status]);
  }

  async markRequestPaid(orderId: string): Promise<void> {
    await this.m.query(
      `UPDATE "commerce"."payment_request" SET "state" = 'paid', "modified" = now() WHERE "order_id" = $1 AND "state" = 'accepted'`,
      [orderId],
    );
  }

  async lockRequestOf(orderId: string): Promise<{ id: string; state: RequestState } | null> {
    const rows = (await this.m.query(`SELECT "id", "state" FROM "commerce"."payment_request" WHERE "order_id" = $1 FOR UPDATE`, [
      orderId,
    ])) as Array<{ id: string; state: RequestState }>;
    return rows[0] ?? null;
  }

  async cancelRequestOf(orderId: string): Promise<void> {
    await this.m.query(
      `UPDATE "commerce"."payment_request" SET "state" = 'cancelled', "modified" = now() WHERE "order_id" = $1 AND "state" = 'accepted'`,
      [orderId],
    );
  }

  async recordLatePayment(
    p: Pick<LatePaymentRow, 'provider' | 'paymentId' | 'orderId' | 'sessionId' | 'account' | 'amount'>,
  ): Promise<boolean> {
    const rows = (await this.m.query(
      `INSERT INTO "commerce"."late_payment" ("provider", "payment_id", "order_id", "session_id", "account", "amount")
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING "payment_id"`,
      [p.provider, p.paymentId, p.orderId, p.sessionId, p.account, p.amount],
    )) as unknown[];
    return rows.length === 1;
  }

  markLateRefunded(provider: PaymentProviderId, paymentId: string): Promise<LatePaymentRow | null> {
    return markLateRefundedWith(this.m, provider, paymentId);
  }

  insertReply(reply: Omit<ReplyRow, 'created'>): Promise<void> {
    return insertReplyWith(this.m, reply);
  }

  record(...events: CommerceEventRecord[]): Promise<void> {
    return recordCommerceEvents(this.m, events);
  }

  async claimEvent(provider: PaymentProviderId, id: string, type: string): Promise<boolean> {
    const rows = (await this.m.query(
      `INSERT INTO "commerce"."provider_event" ("provider", "id", "type") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING "id"`,
      [provider, id, type],
    )) as unknown[];
    return rows.length === 1;
  }
}

/** The only place that touches orders, their receipts, replies, payment sessions, provider events and idempotency keys. */
@Injectable()
export class OrdersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Runs `work` in one transaction (READ COMMITTED; rows locked as it reads them). */
  inTransaction<T>(work: (tx: OrdersTx) => Promise<T>): Promise<T> {
    return this.db.transaction((manager) => work(new Transaction(manager)));
  }

  async insertOrder(
    order: Omit<OrderRow, 'created' | 'modified' | 'failure' | 'paymentId' | 'fulfilNote' | 'paidAt' | 'fulfilledAt'>,
  ): Promise<OrderRow> {
    const rows = (await this.db.query(
      `INSERT INTO "commerce"."order"
        ("id", "service_id", "product_id", "seller_id", "buyer_id", "email", "note", "share", "state", "provider", "account", "vendor", "items", "amount", "currency", "shipping")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14, $15, $16::jsonb) RETURNING *`,
      [
        order.id,
        order.serviceId,
        order.productId,
        order.sellerId,
        order.buyerId,
        order.email,
        order.note,
        order.share,
        order.state,
        order.provider,
        order.account,
        order.vendor,
        JSON.stringify(order.items),
        order.amount,
        order.currency,
        order.shipping === null ? null : JSON.stringify(order.shipping),
      ],
    )) as Array<Record<string, unknown>>;
    return toOrder(rows[0] as Record<string, unknown>);
  }

  async findOrder(id: string): Promise<OrderRow | null> {
    const rows = (await this.db.query(`SELECT * FROM "commerce"."order" WHERE "id" = $1`, [id])) as Array<Record<string, unknown>>;
    return rows[0] ? toOrder(rows[0]) : null;
  }

  async findOrderByPayment(paymentId: string): Promise<OrderRow | null> {
    const rows = (await this.db.query(`SELECT * FROM "commerce"."order" WHERE "payment_id" = $1`, [paymentId])) as Array<
      Record<string, unknown>
    >;
    return rows[0] ? toOrder(rows[0]) : null;
  }

  async listOrders(
    who: { sellerId: string } | { buyerId: string },
    state: OrderState | readonly OrderState[] | undefined,
    offset: number,
    limit: number,
  ): Promise<{ rows: OrderRow[]; total: number }> {
    const column = 'sellerId' in who ? 'seller_id' : 'buyer_id';
    const id = 'sellerId' in who ? who.sellerId : who.buyerId;
    const states = state === undefined ? null : typeof state === 'string' ? [state] : [...state];
    const where = `"${column}" = $1 AND ($2::text[] IS NULL OR "state" = ANY($2::text[]))`;
    const [rows, counted] = await Promise.all([
      this.db.query(`SELECT * FROM "commerce"."order" WHERE ${where} ORDER BY "created" DESC, "id" LIMIT $3 OFFSET $4`, [
        id,
        states,
        limit,
        offset,
      ]) as Promise<Array<Record<string, unknown>>>,
      this.db.query(`SELECT count(*)::int AS n FROM "commerce"."order" WHERE ${where}`, [id, states]) as Promise<Array<{ n: number }>>,
    ]);
    return { rows: rows.map(toOrder), total: counted[0]?.n ?? 0 };
  }

  async receipt(orderId: string): Promise<ReceiptRow | null> {
    const rows = (await this.db.query(`SELECT * FROM "commerce"."receipt" WHERE "order_id" = $1`, [orderId])) as Array<
      Record<string, unknown>
    >;
    return rows[0] ? toReceipt(rows[0]) : null;
  }

  async replies(orderId: string): Promise<ReplyRow[]> {
    const rows = (await this.db.query(`SELECT * FROM "commerce"."order_reply" WHERE "order_id" = $1 ORDER BY "created", "id"`, [
      orderId,
    ])) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      id: r.id as string,
      orderId: r.order_id as string,
      authorId: r.author_id as string,
      authorRole: r.author_role as 'buyer' | 'seller',
      note: r.note as string,
      created: r.created as Date,
    }));
  }

  async latePayments(orderId: string): Promise<LatePaymentRow[]> {
    const rows = (await this.db.query(`SELECT * FROM "commerce"."late_payment" WHERE "order_id" = $1 ORDER BY "created", "payment_id"`, [
      orderId,
    ])) as Array<Record<string, unknown>>;
    return rows.map(toLatePayment);
  }

  /**
   * Takes the lease of up to `limit` late payments whose refund is still to make and was not tried
   * in the last `leaseSeconds` (another replica, or the request that recorded it, may be at it):
   * of two replicas at once, each gets other rows. The refund itself happens after this returns.
   */
  async leaseLateRefunds(leaseSeconds: number, limit: number): Promise<LatePaymentRow[]> {
    const rows = returned(
      await this.db.query(
        `UPDATE "commerce"."late_payment" SET "attempt_at" = now(), "attempts" = "attempts" + 1
         WHERE ("provider", "payment_id") IN (
           SELECT "provider", "payment_id" FROM "commerce"."late_payment"
            WHERE "state" = 'refund_pending' AND "attempt_at" <= now() - make_interval(secs => $1)
            ORDER BY "attempt_at" LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        [leaseSeconds, limit],
      ),
    );
    return rows.map(toLatePayment);
  }

  /** The refund of a late payment went through: answers the row when this call recorded it (once). */
  markLateRefunded(provider: PaymentProviderId, paymentId: string): Promise<LatePaymentRow | null> {
    return markLateRefundedWith(this.db, provider, paymentId);
  }

  /** The refund of a late payment failed this time: the reason is kept, a later lease tries again. */
  async noteLateRefundError(provider: PaymentProviderId, paymentId: string, error: string): Promise<void> {
    await this.db.query(`UPDATE "commerce"."late_payment" SET "last_error" = $3 WHERE "provider" = $1 AND "payment_id" = $2`, [
      provider,
      paymentId,
      error.slice(0, 500),
    ]);
  }

  insertReply(reply: Omit<ReplyRow, 'created'>): Promise<void> {
    return insertReplyWith(this.db, reply);
  }

  /** The order's open payment session (at most one: a unique index), read without a lock. */
  openSessionOf(orderId: string): Promise<PaymentSessionRow | null> {
    return openSessionWith(this.db, orderId);
  }

  async findSession(id: string): Promise<PaymentSessionRow | null> {
    const rows = (await this.db.query(`SELECT * FROM "commerce"."payment_session" WHERE "id" = $1`, [id])) as Array<
      Record<string, unknown>
    >;
    return rows[0] ? toSession(rows[0]) : null;
  }

  async countOrdersOfProduct(productId: string): Promise<number> {
    const rows = (await this.db.query(`SELECT count(*)::int AS n FROM "commerce"."order" WHERE "product_id" = $1`, [productId])) as Array<{
      n: number;
    }>;
    return rows[0]?.n ?? 0;
  }

  /**
   * Claims an Idempotency-Key for a request: the first claim wins and runs it; a retry with the same
   * request gets the stored answer; another request under the same key is a mismatch; a retry while the
   * first still runs is busy. Keys are kept 24 hours (as Stripe's).
   */
  async claimKey(scope: string, key: string, fingerprint: string): Promise<KeyClaim> {
    await this.db.query(
      `DELETE FROM "commerce"."idempotency_key" WHERE "scope" = $1 AND "key" = $2 AND "created" < now() - interval '24 hours'`,
      [scope, key],
    );
    const inserted = (await this.db.query(
      `INSERT INTO "commerce"."idempotency_key" ("scope", "key", "fingerprint") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING "key"`,
      [scope, key, fingerprint],
    )) as unknown[];
    if (inserted.length === 1) return { state: 'claimed' };
    const rows = (await this.db.query(
      `SELECT "fingerprint", "response" FROM "commerce"."idempotency_key" WHERE "scope" = $1 AND "key" = $2`,
      [scope, key],
    )) as Array<{ fingerprint: string; response: unknown }>;
    const row = rows[0];
    if (!row) return this.claimKey(scope, key, fingerprint);
    if (row.fingerprint !== fingerprint) return { state: 'mismatch' };
    return row.response === null ? { state: 'busy' } : { state: 'done', response: row.response };
  }

  async storeKey(scope: string, key: string, response: unknown): Promise<void> {
    await this.db.query(`UPDATE "commerce"."idempotency_key" SET "response" = $3::jsonb WHERE "scope" = $1 AND "key" = $2`, [
      scope,
      key,
      JSON.stringify(response),
    ]);
  }

  /** A request that failed leaves no answer: the key may be tried again. */
  async releaseKey(scope: string, key: string): Promise<void> {
    await this.db.query(`DELETE FROM "commerce"."idempotency_key" WHERE "scope" = $1 AND "key" = $2 AND "response" IS NULL`, [scope, key]);
  }
}
