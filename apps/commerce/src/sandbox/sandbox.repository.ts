import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

export type SandboxStatus = 'open' | 'requires_action' | 'complete' | 'expired';

export interface SandboxSessionRow {
  id: string;
  orderId: string;
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

interface RawRow {
  id: string;
  order_id: string;
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
  orderId: r.order_id,
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

  async insert(row: Omit<SandboxSessionRow, 'status' | 'error' | 'paymentIntent' | 'refunded'>): Promise<void> {
    await this.db.query(
      `INSERT INTO "commerce"."sandbox_session"
        ("id", "order_id", "account", "amount", "currency", "email", "product_name", "seller_name", "status", "success_url", "cancel_url", "expires_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9, $10, $11)`,
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
    fields: { error?: string | null; paymentIntent?: string },
  ): Promise<SandboxSessionRow | null> {
    const [rows] = (await this.db.query(
      `UPDATE "commerce"."sandbox_session"
         SET "status" = $3, "error" = $4, "payment_intent" = COALESCE($5, "payment_intent"), "modified" = now()
       WHERE "id" = $1 AND "status" = ANY($2::text[]) AND ("expires_at" > now() OR $3 = 'expired')
       RETURNING *`,
      [id, from, to, fields.error ?? null, fields.paymentIntent ?? null],
    )) as [RawRow[], number];
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** A declined card: the session stays open with the reason. */
  async setError(id: string, error: string): Promise<SandboxSessionRow | null> {
    const [rows] = (await this.db.query(
      `UPDATE "commerce"."sandbox_session" SET "error" = $2, "modified" = now() WHERE "id" = $1 AND "status" = 'open' RETURNING *`,
      [id, error],
    )) as [RawRow[], number];
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
