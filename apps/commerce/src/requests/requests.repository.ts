import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RequestState } from '@tinkerdesk/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { recordCommerceEvents, type CommerceEventRecord } from '../events/commerce-events.js';

export interface RequestRow {
  id: string;
  sellerId: string;
  serviceId: string;
  productId: string | null;
  product: { id: string; name: string; description: string; price: number; currency: 'USD' };
  email: string;
  note: string;
  keyHash: string;
  payerId: string | null;
  state: RequestState;
  orderId: string | null;
  expires: Date;
  created: Date;
  modified: Date;
}

const toRow = (r: Record<string, unknown>): RequestRow => ({
  id: r.id as string,
  sellerId: r.seller_id as string,
  serviceId: r.service_id as string,
  productId: (r.product_id as string | null) ?? null,
  product: r.product as RequestRow['product'],
  email: r.email as string,
  note: r.note as string,
  keyHash: r.key_hash as string,
  payerId: (r.payer_id as string | null) ?? null,
  state: r.state as RequestState,
  orderId: (r.order_id as string | null) ?? null,
  expires: r.expires as Date,
  created: r.created as Date,
  modified: r.modified as Date,
});

/** The only place that touches payment requests. */
@Injectable()
export class RequestsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(r: Omit<RequestRow, 'created' | 'modified' | 'state' | 'orderId'>): Promise<RequestRow> {
    const rows = (await this.db.query(
      `INSERT INTO "commerce"."payment_request" ("id", "seller_id", "service_id", "product_id", "product", "email", "note", "key_hash", "payer_id", "state", "expires")
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, 'open', $10) RETURNING *`,
      [r.id, r.sellerId, r.serviceId, r.productId, JSON.stringify(r.product), r.email, r.note, r.keyHash, r.payerId, r.expires],
    )) as Array<Record<string, unknown>>;
    return toRow(rows[0] as Record<string, unknown>);
  }

  async find(id: string): Promise<RequestRow | null> {
    const rows = (await this.db.query(`SELECT * FROM "commerce"."payment_request" WHERE "id" = $1`, [id])) as Array<
      Record<string, unknown>
    >;
    return rows[0] ? toRow(rows[0]) : null;
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
    fields: { orderId?: string; payerId?: string | null } = {},
    events: CommerceEventRecord[] = [],
  ): Promise<RequestRow | null> {
    if (events.length === 0) return this.moveWith(this.db.manager, id, from, to, fields);
    return this.db.transaction(async (m) => {
      const moved = await this.moveWith(m, id, from, to, fields);
      if (moved) await recordCommerceEvents(m, events);
      return moved;
    });
  }

  private async moveWith(
    m: EntityManager,
    id: string,
    from: RequestState,
    to: RequestState,
    fields: { orderId?: string; payerId?: string | null },
  ): Promise<RequestRow | null> {
    const [rows] = (await m.query(
      `UPDATE "commerce"."payment_request"
         SET "state" = $3, "order_id" = COALESCE($4, "order_id"), "payer_id" = COALESCE($5, "payer_id"), "modified" = now()
       WHERE "id" = $1 AND "state" = $2 RETURNING *`,
      [id, from, to, fields.orderId ?? null, fields.payerId ?? null],
    )) as [Array<Record<string, unknown>>, number];
    return rows[0] ? toRow(rows[0]) : null;
  }

  /**
   * Runs `work` with the request's row locked (SELECT ... FOR UPDATE), so answers to one request run
   * one after another; `move` changes its state in the same transaction.
   */
  locked<T>(
    id: string,
    work: (
      row: RequestRow,
      move: (to: RequestState, fields?: { orderId?: string; payerId?: string | null }) => Promise<RequestRow>,
    ) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction(async (m) => {
      const rows = (await m.query(`SELECT * FROM "commerce"."payment_request" WHERE "id" = $1 FOR UPDATE`, [id])) as Array<
        Record<string, unknown>
      >;
      if (!rows[0]) throw new Error(`payment request ${id} vanished`);
      const row = toRow(rows[0]);
      return work(row, async (to, fields = {}) => {
        const [updated] = (await m.query(
          `UPDATE "commerce"."payment_request"
             SET "state" = $2, "order_id" = COALESCE($3, "order_id"), "payer_id" = COALESCE($4, "payer_id"), "modified" = now()
           WHERE "id" = $1 RETURNING *`,
          [id, to, fields.orderId ?? null, fields.payerId ?? null],
        )) as [Array<Record<string, unknown>>, number];
        return toRow(updated[0] as Record<string, unknown>);
      });
    });
  }

  async list(
    who: { sellerId: string } | { email: string; payerId: string },
    offset: number,
    limit: number,
  ): Promise<{ rows: RequestRow[]; total: number }> {
    const [where, params] =
      'sellerId' in who
        ? ['"seller_id" = $1', [who.sellerId]]
        : ['(lower("email") = lower($1) OR "payer_id" = $2)', [who.email, who.payerId]];
    const n = params.length;
    const [rows, counted] = await Promise.all([
      this.db.query(
        `SELECT * FROM "commerce"."payment_request" WHERE ${where} ORDER BY "created" DESC, "id" LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...params, limit, offset],
      ) as Promise<Array<Record<string, unknown>>>,
      this.db.query(`SELECT count(*)::int AS n FROM "commerce"."payment_request" WHERE ${where}`, params) as Promise<Array<{ n: number }>>,
    ]);
    return { rows: rows.map(toRow), total: counted[0]?.n ?? 0 };
  }
}
