import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

export type SandboxStatus = 'open' | 'requires_action' | 'complete' | 'expired';

export interface SandboxSessionRow {
  id: string;
  mode: 'payment' | 'setup';
  /** The order paid (payment mode). */
  orderId: string | null;
  /** Whose card is saved (setup mode). */
  userId: string | null;
  /** The card saved (setup mode, once complete). */
  cardId: string | null;
  /** A card waiting for its 3-D Secure step (setup mode). */
  pendingCard: PendingCard | null;
  account: string;
  amount: number;
  currency: string;
  email: string;
  productName: string;
  sellerName: string;
  status: SandboxStatus;
  error: string | null;
  paymentIntent: string | null;
  refunded: boolean;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
}

export type PendingCard = Pick<SandboxCardRow, 'brand' | 'last4' | 'expMonth' | 'expYear' | 'chargesFail'>;

/** A card the sandbox keeps (as Stripe keeps a PaymentMethod). */
export interface SandboxCardRow {
  id: string;
  userId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** The card saves, but every charge of it is declined (Stripe's 4000 0000 0000 0341). */
  chargesFail: boolean;
  detached: boolean;
}

export interface SandboxChargeRow {
  id: string;
  idempotencyKey: string;
  cardId: string;
  account: string;
  amount: number;
  paid: boolean;
  error: string | null;
}

interface RawRow {
  id: string;
  mode: 'payment' | 'setup';
  order_id: string | null;
  user_id: string | null;
  card_id: string | null;
  pending_card: PendingCard | null;
  account: string;
  amount: number;
  currency: string;
  email: string;
  product_name: string;
  seller_name: string;
  status: SandboxStatus;
  error: string | null;
  payment_intent: string | null;
  refunded: boolean;
  success_url: string;
  cancel_url: string;
  expires_at: Date;
}

const toRow = (r: RawRow): SandboxSessionRow => ({
  id: r.id,
  mode: r.mode,
  orderId: r.order_id,
  userId: r.user_id,
  cardId: r.card_id,
  pendingCard: r.pending_card,
  account: r.account,
  amount: r.amount,
  currency: r.currency,
  email: r.email,
  productName: r.product_name,
  sellerName: r.seller_name,
  status: r.status,
  error: r.error,
  paymentIntent: r.payment_intent,
  refunded: r.refunded,
  successUrl: r.success_url,
  cancelUrl: r.cancel_url,
  expiresAt: r.expires_at,
});

/** The only place that touches the sandbox processor's sessions. */
@Injectable()
export class SandboxRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(row: Omit<SandboxSessionRow, 'status' | 'error' | 'paymentIntent' | 'refunded' | 'cardId' | 'pendingCard'>): Promise<void> {
    await this.db.query(
      `INSERT INTO "commerce"."sandbox_session"
        ("id", "mode", "order_id", "user_id", "account", "amount", "currency", "email", "product_name", "seller_name", "status", "success_url", "cancel_url", "expires_at")
       VALUES ($1, $12, $2, $13, $3, $4, $5, $6, $7, $8, 'open', $9, $10, $11)`,
      [
        row.id,
        row.orderId,
        row.account,
        row.amount,
        row.currency,
        row.email,
        row.productName,
        row.sellerName,
        row.successUrl,
        row.cancelUrl,
        row.expiresAt,
        row.mode,
        row.userId,
      ],
    );
  }

  async find(id: string): Promise<SandboxSessionRow | null> {
    const rows = (await this.db.query(`SELECT * FROM "commerce"."sandbox_session" WHERE "id" = $1`, [id])) as RawRow[];
    return rows[0] ? toRow(rows[0]) : null;
  }

  /**
   * Moves a session from one of `from` to `to` (with the fields given) only if it is still in one of
   * them: of two tries at once, exactly one wins. Answers the session after the change, or null.
   */
  async transition(
    id: string,
    from: SandboxStatus[],
    to: SandboxStatus,
    fields: { error?: string | null; paymentIntent?: string; pendingCard?: PendingCard | null },
  ): Promise<SandboxSessionRow | null> {
    const [rows] = (await this.db.query(
      `UPDATE "commerce"."sandbox_session"
         SET "status" = $3, "error" = $4, "payment_intent" = COALESCE($5, "payment_intent"), "pending_card" = $6::jsonb, "modified" = now()
       WHERE "id" = $1 AND "status" = ANY($2::text[]) AND ("expires_at" > now() OR $3 = 'expired')
       RETURNING *`,
      [id, from, to, fields.error ?? null, fields.paymentIntent ?? null, fields.pendingCard ? JSON.stringify(fields.pendingCard) : null],
    )) as [RawRow[], number];
    return rows[0] ? toRow(rows[0]) : null;
  }

  /**
   * Saves a card for a setup session that is still open (or waiting for its 3-D Secure step) and
   * completes the session, in one transaction: of two tries at once, one card is kept.
   */
  async saveCard(sessionId: string, from: SandboxStatus[], card: Omit<SandboxCardRow, 'detached'>): Promise<SandboxSessionRow | null> {
    return this.db.transaction(async (tx) => {
      const [rows] = (await tx.query(
        `UPDATE "commerce"."sandbox_session" SET "status" = 'complete', "error" = NULL, "card_id" = $3, "pending_card" = NULL, "modified" = now()
         WHERE "id" = $1 AND "mode" = 'setup' AND "status" = ANY($2::text[]) AND "expires_at" > now() RETURNING *`,
        [sessionId, from, card.id],
      )) as [RawRow[], number];
      if (!rows[0]) return null;
      await tx.query(
        `INSERT INTO "commerce"."sandbox_card" ("id", "user_id", "brand", "last4", "exp_month", "exp_year", "charges_fail")
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [card.id, card.userId, card.brand, card.last4, card.expMonth, card.expYear, card.chargesFail],
      );
      return toRow(rows[0]);
    });
  }

  async findCard(id: string): Promise<SandboxCardRow | null> {
    const rows = (await this.db.query(`SELECT * FROM "commerce"."sandbox_card" WHERE "id" = $1`, [id])) as Array<Record<string, unknown>>;
    const r = rows[0];
    return r
      ? {
          id: r.id as string,
          userId: r.user_id as string,
          brand: r.brand as string,
          last4: r.last4 as string,
          expMonth: r.exp_month as number,
          expYear: r.exp_year as number,
          chargesFail: r.charges_fail as boolean,
          detached: r.detached as boolean,
        }
      : null;
  }

  async detachCard(id: string): Promise<void> {
    await this.db.query(`UPDATE "commerce"."sandbox_card" SET "detached" = true WHERE "id" = $1`, [id]);
  }

  /**
   * An off-session charge, once per idempotency key: a second call with the key answers the first
   * call's charge (as Stripe's idempotency keys do), whatever happened between.
   */
  async charge(row: SandboxChargeRow): Promise<SandboxChargeRow> {
    await this.db.query(
      `INSERT INTO "commerce"."sandbox_charge" ("id", "idempotency_key", "card_id", "account", "amount", "paid", "error")
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT ("idempotency_key") DO NOTHING`,
      [row.id, row.idempotencyKey, row.cardId, row.account, row.amount, row.paid, row.error],
    );
    const rows = (await this.db.query(`SELECT * FROM "commerce"."sandbox_charge" WHERE "idempotency_key" = $1`, [
      row.idempotencyKey,
    ])) as Array<Record<string, unknown>>;
    const r = rows[0]!;
    return {
      id: r.id as string,
      idempotencyKey: r.idempotency_key as string,
      cardId: r.card_id as string,
      account: r.account as string,
      amount: r.amount as number,
      paid: r.paid as boolean,
      error: (r.error as string | null) ?? null,
    };
  }

  /** A declined card: the session stays open with the reason. */
  async setError(id: string, error: string): Promise<SandboxSessionRow | null> {
    const [rows] = (await this.db.query(
      `UPDATE "commerce"."sandbox_session" SET "error" = $2, "modified" = now() WHERE "id" = $1 AND "status" = 'open' RETURNING *`,
      [id, error],
    )) as [RawRow[], number];
    return rows[0] ? toRow(rows[0]) : null;
  }

  async findByPayment(paymentIntent: string, account: string): Promise<SandboxSessionRow | null> {
    const rows = (await this.db.query(`SELECT * FROM "commerce"."sandbox_session" WHERE "payment_intent" = $1 AND "account" = $2`, [
      paymentIntent,
      account,
    ])) as RawRow[];
    return rows[0] ? toRow(rows[0]) : null;
  }

  async markRefunded(paymentIntent: string, account: string): Promise<boolean> {
    const [, count] = (await this.db.query(
      `UPDATE "commerce"."sandbox_session" SET "refunded" = true, "modified" = now()
       WHERE "payment_intent" = $1 AND "account" = $2 AND "status" = 'complete' AND NOT "refunded"`,
      [paymentIntent, account],
    )) as [unknown, number];
    return count === 1;
  }

  /** Charges made: sessions that were paid (tests count charges per order). */
  async chargesFor(orderId: string): Promise<number> {
    const rows = (await this.db.query(
      `SELECT count(*)::int AS n FROM "commerce"."sandbox_session" WHERE "order_id" = $1 AND "payment_intent" IS NOT NULL`,
      [orderId],
    )) as Array<{ n: number }>;
    return rows[0]?.n ?? 0;
  }
}
