import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PaymentProviderId, PlanInterval, PlanState } from '@tinkerdesk/contracts';
import type { DataSource } from 'typeorm';
import { recordCommerceEvents, type CommerceEventRecord } from '../events/commerce-events.js';

export interface PlanRow {
  id: string;
  payerId: string;
  sellerId: string;
  serviceId: string;
  productId: string | null;
  product: { name: string; price: number; currency: 'USD' };
  provider: PaymentProviderId;
  account: string;
  interval: PlanInterval;
  reminderDay: number;
  startAt: Date;
  timeZone: string;
  methodId: string | null;
  state: PlanState;
  /** The period charged next (0 first). */
  period: number;
  /** Failed tries of that period. */
  attempts: number;
  nextChargeAt: Date | null;
  lastError: string | null;
  created: Date;
  cancelledAt: Date | null;
}

export interface ChargeRow {
  id: string;
  planId: string;
  period: number;
  dueAt: Date;
  state: 'paid' | 'failed';
  amount: number;
  attempts: number;
  paymentRef: string | null;
  error: string | null;
  created: Date;
}

const toPlan = (r: Record<string, unknown>): PlanRow => ({
  id: r.id as string,
  payerId: r.payer_id as string,
  sellerId: r.seller_id as string,
  serviceId: r.service_id as string,
  productId: (r.product_id as string | null) ?? null,
  product: r.product as PlanRow['product'],
  provider: r.provider as PaymentProviderId,
  account: r.account as string,
  interval: r.interval as PlanInterval,
  reminderDay: r.reminder_day as number,
  startAt: r.start_at as Date,
  timeZone: r.time_zone as string,
  methodId: (r.method_id as string | null) ?? null,
  state: r.state as PlanState,
  period: r.period as number,
  attempts: r.attempts as number,
  nextChargeAt: (r.next_charge_at as Date | null) ?? null,
  lastError: (r.last_error as string | null) ?? null,
  created: r.created as Date,
  cancelledAt: (r.cancelled_at as Date | null) ?? null,
});

const toCharge = (r: Record<string, unknown>): ChargeRow => ({
  id: r.id as string,
  planId: r.plan_id as string,
  period: r.period as number,
  dueAt: r.due_at as Date,
  state: r.state as ChargeRow['state'],
  amount: r.amount as number,
  attempts: r.attempts as number,
  paymentRef: (r.payment_ref as string | null) ?? null,
  error: (r.error as string | null) ?? null,
  created: r.created as Date,
});

/** How long one runner holds a plan's due charge before another may take it over (it died). */
const CLAIM_SECONDS = 300;

/** What a charge's outcome changes on its plan. */
export type ChargeResult =
  { paid: true; paymentRef: string; next: Date } | { paid: false; error: string; next: Date | null; state: 'past_due' | 'unpaid' };

/** The only place that touches plans and their charges. */
@Injectable()
export class PlansRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(row: Omit<PlanRow, 'state' | 'period' | 'attempts' | 'lastError' | 'created' | 'cancelledAt'>): Promise<PlanRow> {
    const rows = (await this.db.query(
      `INSERT INTO "commerce"."plan" ("id", "payer_id", "seller_id", "service_id", "product_id", "product", "provider", "account",
         "interval", "reminder_day", "start_at", "time_zone", "method_id", "state", "next_charge_at")
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, 'active', $14) RETURNING *`,
      [
        row.id,
        row.payerId,
        row.sellerId,
        row.serviceId,
        row.productId,
        JSON.stringify(row.product),
        row.provider,
        row.account,
        row.interval,
        row.reminderDay,
        row.startAt,
        row.timeZone,
        row.methodId,
        row.nextChargeAt,
      ],
    )) as Array<Record<string, unknown>>;
    return toPlan(rows[0]!);
  }

  async find(id: string): Promise<PlanRow | null> {
    const rows = (await this.db.query(`SELECT * FROM "commerce"."plan" WHERE "id" = $1`, [id])) as Array<Record<string, unknown>>;
    return rows[0] ? toPlan(rows[0]) : null;
  }

  /** The plans a user pays or is paid by, newest first. */
  async listFor(userId: string): Promise<PlanRow[]> {
    const rows = (await this.db.query(
      `SELECT * FROM "commerce"."plan" WHERE "payer_id" = $1 OR "seller_id" = $1 ORDER BY "created" DESC, "id" DESC LIMIT 200`,
      [userId],
    )) as Array<Record<string, unknown>>;
    return rows.map(toPlan);
  }

  /** The latest `perPlan` charges of each plan, newest first (one query for a whole list). */
  async charges(planIds: string[], perPlan = 12): Promise<Map<string, ChargeRow[]>> {
    const out = new Map<string, ChargeRow[]>(planIds.map((id) => [id, []]));
    if (planIds.length === 0) return out;
    const rows = (await this.db.query(
      `SELECT * FROM (
         SELECT c.*, row_number() OVER (PARTITION BY "plan_id" ORDER BY "period" DESC) AS n
         FROM "commerce"."plan_charge" c WHERE "plan_id" = ANY($1::uuid[])) t
       WHERE n <= $2 ORDER BY "period" DESC`,
      [planIds, perPlan],
    )) as Array<Record<string, unknown>>;
    for (const r of rows) out.get(r.plan_id as string)?.push(toCharge(r));
    return out;
  }

  /** Counts of paid periods per plan. */
  async paidPeriods(planIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (planIds.length === 0) return out;
    const rows = (await this.db.query(
      `SELECT "plan_id", count(*)::int AS n FROM "commerce"."plan_charge" WHERE "plan_id" = ANY($1::uuid[]) AND "state" = 'paid' GROUP BY "plan_id"`,
      [planIds],
    )) as Array<{ plan_id: string; n: number }>;
    for (const r of rows) out.set(r.plan_id, r.n);
    return out;
  }

  /** Cancels a live plan: no charge starts after this. Null when it was not live. */
  async cancel(id: string, now: Date): Promise<PlanRow | null> {
    const rows = (await this.db.query(
      `UPDATE "commerce"."plan" SET "state" = 'cancelled', "next_charge_at" = NULL, "cancelled_at" = $2, "modified" = now()
       WHERE "id" = $1 AND "state" IN ('active', 'past_due', 'unpaid') RETURNING *`,
      [id, now],
    )) as [Array<Record<string, unknown>>, number];
    const changed = rows[0];
    return changed[0] ? toPlan(changed[0]) : null;
  }

  /** Live plans whose charge (or retry) is due at `now`, not held by a runner. */
  async due(now: Date, limit = 500): Promise<Array<Pick<PlanRow, 'id' | 'period' | 'attempts'>>> {
    const rows = (await this.db.query(
      `SELECT "id", "period", "attempts" FROM "commerce"."plan"
       WHERE "state" IN ('active', 'past_due') AND "next_charge_at" <= $1 AND ("claimed_until" IS NULL OR "claimed_until" < $1)
       ORDER BY "next_charge_at" LIMIT $2`,
      [now, limit],
    )) as Array<{ id: string; period: number; attempts: number }>;
    return rows;
  }

  /**
   * Takes a plan's due charge for one runner: of replicas that try at once, one gets the plan (and
   * its card), the others null. The hold lapses after a while, so a runner that died is replaced.
   */
  async claim(id: string, now: Date): Promise<(PlanRow & { card: { ref: string; customerRef: string | null } | null }) | null> {
    const rows = (await this.db.query(
      `UPDATE "commerce"."plan" SET "claimed_until" = $2::timestamptz + make_interval(secs => $3)
       WHERE "id" = $1 AND "state" IN ('active', 'past_due') AND "next_charge_at" <= $2
         AND ("claimed_until" IS NULL OR "claimed_until" < $2)
       RETURNING *`,
      [id, now, CLAIM_SECONDS],
    )) as [Array<Record<string, unknown>>, number];
    const claimed = rows[0][0];
    if (!claimed) return null;
    const plan = toPlan(claimed);
    const cards = (await this.db.query(`SELECT "ref", "customer_ref" FROM "commerce"."payment_method" WHERE "id" = $1`, [
      plan.methodId,
    ])) as Array<{ ref: string; customer_ref: string | null }>;
    return { ...plan, card: cards[0] ? { ref: cards[0].ref, customerRef: cards[0].customer_ref } : null };
  }

  /** Lets go of a claim without a result (the provider could not be reached: the try is repeated). */
  async release(id: string): Promise<void> {
    await this.db.query(`UPDATE "commerce"."plan" SET "claimed_until" = NULL WHERE "id" = $1`, [id]);
  }

  /**
   * Records the outcome of a claimed charge, in one transaction: the period's charge row (once: a
   * period that is paid stays paid) and the plan's next step, only if the plan is still at that
   * period and try. Answers false when another runner recorded it first.
   */
  async record(plan: PlanRow, dueAt: Date, chargeId: string, result: ChargeResult, events: CommerceEventRecord[] = []): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const attempts = plan.attempts + 1;
      const [updated] = (await tx.query(
        `UPDATE "commerce"."plan" SET
           "period" = CASE WHEN $4 THEN "period" + 1 ELSE "period" END,
           "attempts" = CASE WHEN $4 THEN 0 ELSE "attempts" + 1 END,
           "state" = CASE WHEN "state" = 'cancelled' THEN 'cancelled' ELSE $5 END,
           "next_charge_at" = CASE WHEN "state" = 'cancelled' THEN NULL ELSE $6::timestamptz END,
           "last_error" = $7, "claimed_until" = NULL, "modified" = now()
         WHERE "id" = $1 AND "period" = $2 AND "attempts" = $3 RETURNING "id"`,
        [
          plan.id,
          plan.period,
          plan.attempts,
          result.paid,
          result.paid ? 'active' : result.state,
          result.next,
          result.paid ? null : result.error,
        ],
      )) as [Array<{ id: string }>, number];
      if (updated.length === 0) return false;
      await tx.query(
        `INSERT INTO "commerce"."plan_charge" ("id", "plan_id", "period", "due_at", "state", "amount", "attempts", "payment_ref", "error")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT ("plan_id", "period") DO UPDATE SET "state" = EXCLUDED."state", "attempts" = EXCLUDED."attempts",
           "payment_ref" = EXCLUDED."payment_ref", "error" = EXCLUDED."error", "modified" = now()
         WHERE "plan_charge"."state" <> 'paid'`,
        [
          chargeId,
          plan.id,
          plan.period,
          dueAt,
          result.paid ? 'paid' : 'failed',
          plan.product.price,
          attempts,
          result.paid ? result.paymentRef : null,
          result.paid ? null : result.error,
        ],
      );
      await recordCommerceEvents(tx, events);
      return true;
    });
  }
}
