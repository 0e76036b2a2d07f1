import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CURRENCY, type OrderState, type SellerOrderSummary } from '@tinkerdesk/contracts';
import { sql } from '@tinkerdesk/persistence';
import type { DataSource } from 'typeorm';

/**
 * What of an order was given back, in cents (its done refunds, partial ones included, kept up to date
 * with the `order_refund` rows under the order's lock): the all-time refunds. A month's refunds are the
 * refunds made in that month (`order_refund.refunded_at`), whenever the order was paid, as a payment
 * provider's balance reports them.
 */
const REFUNDED_SQL = `o."refunded_amount"`;

/** Orders that were paid (they count in the earnings): paid, fulfilled, refunded. */
const PAID_STATES: readonly OrderState[] = ['paid', 'fulfilled', 'refunded'];

export interface EarningsRow {
  currency: typeof CURRENCY;
  month: { gross: number; refunds: number; orders: number };
  allTime: { gross: number; refunds: number; orders: number };
}

export interface SellerFigures {
  /** The first instant of the month of `now` in the time zone asked for. */
  monthStart: Date;
  /** One row per currency, alphabetical; none before the first paid order. */
  earnings: EarningsRow[];
  seenAt: Date | null;
  /** Paid orders paid after `since`, else after the seen marker (every paid order when there is none). */
  newOrders: number;
}

/** One order as the seller's lists show it, dates as dates (the service's name is the services feature's). */
export type SellerOrderRow = Omit<SellerOrderSummary, 'serviceName' | 'created' | 'paidAt' | 'fulfilledAt'> & {
  created: Date;
  paidAt: Date | null;
  fulfilledAt: Date | null;
};

export interface SellerOrdersQuery {
  sellerId: string;
  /** Only these states; undefined: all. */
  states?: readonly OrderState[];
  serviceId?: string;
  /** Part of a receipt number, or of the buyer's address where they shared it. */
  search?: string;
  /** `newest`: by creation, newest first; `oldest_paid`: by payment, oldest first (what to fulfil first). */
  order: 'newest' | 'oldest_paid';
  offset: number;
  limit: number;
}

interface FiguresRecord {
  monthStart: Date;
  currency: typeof CURRENCY | null;
  seenAt: Date | null;
  newOrders: number;
  monthGross: string;
  monthRefunds: string;
  monthOrders: number;
  allGross: string;
  allRefunds: string;
  allOrders: number;
}

/** A row of the page as json_agg writes it (dates as text). */
type JsonOrderRow = Omit<SellerOrderRow, 'created' | 'paidAt' | 'fulfilledAt'> & {
  created: string;
  paidAt: string | null;
  fulfilledAt: string | null;
};

const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const toDate = (value: string | null): Date | null => (value === null ? null : new Date(value));

/**
 * The seller's side of orders (the overview): earnings per currency, the pages of their orders and
 * when they last looked. Each method is one statement, whatever the page size.
 */
@Injectable()
export class SalesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Gross, refunds and order counts per currency, this month (orders paid from the first instant of
   * the month of `now` in `timeZone`, an IANA name PostgreSQL knows, to the first of the next) and of
   * all time; unpaid, failed and cancelled orders never count. With the seen marker and the new orders.
   */
  async figures(sellerId: string, timeZone: string, now: Date, since?: Date): Promise<SellerFigures> {
    const rows = await sql.rows<FiguresRecord>(
      this.db,
      `WITH b AS (
         SELECT date_trunc('month', $2::timestamptz AT TIME ZONE $3) AT TIME ZONE $3 AS "start",
                (date_trunc('month', $2::timestamptz AT TIME ZONE $3) + interval '1 month') AT TIME ZONE $3 AS "end",
                (SELECT "seen_at" FROM "commerce"."seller_seen" WHERE "seller_id" = $1) AS "seen"
       ), paid AS (
         SELECT o."currency", o."amount", o."paid_at", ${REFUNDED_SQL} AS "refunded"
           FROM "commerce"."order" o
          WHERE o."seller_id" = $1 AND o."state" = ANY($4::text[]) AND o."paid_at" IS NOT NULL
       ), month_refunds AS (
         SELECT o."currency", sum(r."amount") AS "refunded"
           FROM "commerce"."order_refund" r JOIN "commerce"."order" o ON o."id" = r."order_id", b
          WHERE o."seller_id" = $1 AND r."state" = 'done' AND r."refunded_at" >= b."start" AND r."refunded_at" < b."end"
          GROUP BY o."currency"
       )
       SELECT b."start" AS "monthStart", p."currency", b."seen" AS "seenAt",
              (SELECT count(*)::int FROM paid WHERE "paid_at" > COALESCE($5::timestamptz, b."seen", '-infinity')) AS "newOrders",
              COALESCE(sum(p."amount") FILTER (WHERE p."paid_at" >= b."start" AND p."paid_at" < b."end"), 0)::text AS "monthGross",
              COALESCE((SELECT mr."refunded" FROM month_refunds mr WHERE mr."currency" = p."currency"), 0)::text AS "monthRefunds",
              (count(p."amount") FILTER (WHERE p."paid_at" >= b."start" AND p."paid_at" < b."end"))::int AS "monthOrders",
              COALESCE(sum(p."amount"), 0)::text AS "allGross",
              COALESCE(sum(p."refunded"), 0)::text AS "allRefunds",
              count(p."amount")::int AS "allOrders"
         FROM b LEFT JOIN paid p ON true
        GROUP BY b."start", b."end", b."seen", p."currency"
        ORDER BY p."currency"`,
      [sellerId, now, timeZone, PAID_STATES, since ?? null],
    );
    const first = rows[0];
    if (!first) throw new Error('the figures query answers at least one row');
    return {
      monthStart: first.monthStart,
      seenAt: first.seenAt,
      newOrders: first.newOrders,
      earnings: rows
        .filter((r): r is FiguresRecord & { currency: typeof CURRENCY } => r.currency !== null)
        .map((r) => ({
          currency: r.currency,
          month: { gross: Number(r.monthGross), refunds: Number(r.monthRefunds), orders: r.monthOrders },
          allTime: { gross: Number(r.allGross), refunds: Number(r.allRefunds), orders: r.allOrders },
        })),
    };
  }

  /** A page of the seller's orders and how many match, in one statement (the receipt's number joined). */
  async sellerOrders(query: SellerOrdersQuery): Promise<{ rows: SellerOrderRow[]; total: number }> {
    const search = query.search?.trim() ? likePattern(query.search.trim()) : null;
    const orderBy = query.order === 'newest' ? `"created" DESC, "id" ASC` : `"paidAt" ASC, "id" ASC`;
    const result = await sql.one<{ total: number; rows: JsonOrderRow[] }>(
      this.db,
      `WITH matched AS (
         SELECT o."id", o."state", o."service_id" AS "serviceId", COALESCE(o."items"->0->>'name', '') AS "title",
                jsonb_array_length(o."items") AS "itemCount", o."amount", o."currency",
                CASE WHEN o."share" THEN o."email" END AS "email", r."number" AS "receiptNumber",
                o."created", o."paid_at" AS "paidAt", o."fulfilled_at" AS "fulfilledAt"
           FROM "commerce"."order" o LEFT JOIN "commerce"."receipt" r ON r."order_id" = o."id"
          WHERE o."seller_id" = $1
            AND ($2::text[] IS NULL OR o."state" = ANY($2::text[]))
            AND ($3::uuid IS NULL OR o."service_id" = $3::uuid)
            AND ($4::text IS NULL OR r."number" ILIKE $4 OR (o."share" AND o."email" ILIKE $4))
       )
       SELECT (SELECT count(*)::int FROM matched) AS "total",
              COALESCE((SELECT json_agg(page ORDER BY ${orderBy})
                          FROM (SELECT * FROM matched ORDER BY ${orderBy} OFFSET $5 LIMIT $6) page), '[]'::json) AS "rows"`,
      [query.sellerId, query.states ?? null, query.serviceId ?? null, search, query.offset, query.limit],
    );
    return {
      total: result.total,
      rows: result.rows.map((r) => ({
        ...r,
        created: new Date(r.created),
        paidAt: toDate(r.paidAt),
        fulfilledAt: toDate(r.fulfilledAt),
      })),
    };
  }

  /** Marks the overview seen now: orders paid until now are no longer new. */
  async markSeen(sellerId: string): Promise<Date> {
    const row = await sql.one<{ seenAt: Date }>(
      this.db,
      `INSERT INTO "commerce"."seller_seen" ("seller_id", "seen_at") VALUES ($1, now())
       ON CONFLICT ("seller_id") DO UPDATE SET "seen_at" = GREATEST("seller_seen"."seen_at", excluded."seen_at")
       RETURNING "seen_at" AS "seenAt"`,
      [sellerId],
    );
    return row.seenAt;
  }
}
