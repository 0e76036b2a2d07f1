import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { entityColumns, sql, type IdempotentCreate, type TransactionManager } from '@tinkerdesk/persistence';
import { In, type DataSource, type Repository } from 'typeorm';
import { COMMERCE_KEYS } from '../database/idempotency-keys.js';
import { recordCommerceEvents, type CommerceEventRecord } from '../events/commerce-events.js';
import { PlanChargeEntity } from './plan-charge.entity.js';
import { PlanEntity } from './plan.entity.js';

/** A plan for the service (who holds its due charge, and when it last changed, stay here). */
export type PlanRow = Omit<PlanEntity, 'claimedUntil' | 'modified'>;

export type ChargeRow = Omit<PlanChargeEntity, 'modified'>;

const toPlan = ({ claimedUntil: _claimedUntil, modified: _modified, ...plan }: PlanEntity): PlanRow => plan;

const toCharge = ({ modified: _modified, ...charge }: PlanChargeEntity): ChargeRow => charge;

/** How long one runner holds a plan's due charge before another may take it over (it died). */
const CLAIM_SECONDS = 300;

/** What a charge's outcome changes on its plan. */
export type ChargeResult =
  { paid: true; paymentRef: string; next: Date } | { paid: false; error: string; next: Date | null; state: 'past_due' | 'unpaid' };

/** The only place that touches plans and their charges. */
@Injectable()
export class PlansRepository {
  private readonly plans: Repository<PlanEntity>;
  private readonly planCharges: Repository<PlanChargeEntity>;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.plans = db.getRepository(PlanEntity);
    this.planCharges = db.getRepository(PlanChargeEntity);
  }

  /** Inserts an active plan with what it implies (`events`, recorded in the outbox) in one transaction. */
  async insert(
    row: Omit<PlanRow, 'state' | 'period' | 'attempts' | 'lastError' | 'created' | 'cancelledAt'>,
    events: CommerceEventRecord[] = [],
    idempotent?: IdempotentCreate,
  ): Promise<PlanRow> {
    const {
      id,
      payerId,
      sellerId,
      serviceId,
      productId,
      product,
      provider,
      account,
      interval,
      reminderDay,
      startAt,
      timeZone,
      methodId,
      nextChargeAt,
    } = row;
    return this.db.transaction(async (m) => {
      const plans = m.getRepository(PlanEntity);
      const started = await COMMERCE_KEYS.once(m, idempotent, async () => {
        await plans.insert({
          id,
          payerId,
          sellerId,
          serviceId,
          productId,
          product,
          provider,
          account,
          interval,
          reminderDay,
          startAt,
          timeZone,
          methodId,
          nextChargeAt,
          state: 'active',
        });
        await recordCommerceEvents(m, events);
        return id;
      });
      return toPlan(await plans.findOneByOrFail({ id: started.answer }));
    });
  }

  async find(id: string): Promise<PlanRow | null> {
    const plan = await this.plans.findOneBy({ id });
    return plan ? toPlan(plan) : null;
  }

  /** The plans a user pays or is paid by, newest first. */
  async listFor(userId: string): Promise<PlanRow[]> {
    const rows = await this.plans.find({
      where: [{ payerId: userId }, { sellerId: userId }],
      order: { created: 'DESC', id: 'DESC' },
      take: 200,
    });
    return rows.map(toPlan);
  }

  /** The latest `perPlan` charges of each plan, newest first (one query for a whole list: a window). */
  async charges(planIds: string[], perPlan = 12): Promise<Map<string, ChargeRow[]>> {
    const out = new Map<string, ChargeRow[]>(planIds.map((id) => [id, []]));
    if (planIds.length === 0) return out;
    const rows = await sql.rows<PlanChargeEntity & { n: string }>(
      this.db,
      `SELECT * FROM (
         SELECT ${entityColumns(this.db, PlanChargeEntity, 'c')}, row_number() OVER (PARTITION BY "plan_id" ORDER BY "period" DESC) AS n
         FROM "commerce"."plan_charge" c WHERE "plan_id" = ANY($1::uuid[])) t
       WHERE n <= $2 ORDER BY "period" DESC`,
      [planIds, perPlan],
    );
    for (const { n: _n, ...charge } of rows) out.get(charge.planId)?.push(toCharge(charge));
    return out;
  }

  /** Counts of paid periods per plan. */
  async paidPeriods(planIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (planIds.length === 0) return out;
    const rows = await this.planCharges
      .createQueryBuilder('c')
      .select('c.planId', 'planId')
      .addSelect('count(*)::int', 'n')
      .where({ planId: In(planIds), state: 'paid' })
      .groupBy('c.planId')
      .getRawMany<{ planId: string; n: number }>();
    for (const r of rows) out.set(r.planId, r.n);
    return out;
  }

  /**
   * Cancels a live plan: no charge starts after this. Null when it was not live. `events` (built from
   * the cancelled plan) are recorded in the outbox with the change.
   */
  async cancel(id: string, now: Date, events: (plan: PlanRow) => CommerceEventRecord[] = () => []): Promise<PlanRow | null> {
    return this.db.transaction(async (m) => {
      const changed = await sql.maybeOne<PlanEntity>(
        m,
        `UPDATE "commerce"."plan" SET "state" = 'cancelled', "next_charge_at" = NULL, "cancelled_at" = $2, "modified" = now()
         WHERE "id" = $1 AND "state" IN ('active', 'past_due', 'unpaid') RETURNING ${entityColumns(m, PlanEntity)}`,
        [id, now],
      );
      if (!changed) return null;
      const plan = toPlan(changed);
      await recordCommerceEvents(m, events(plan));
      return plan;
    });
  }

  /** Live plans whose charge (or retry) is due at `now`, not held by a runner. */
  due(now: Date, limit = 500): Promise<Array<Pick<PlanRow, 'id' | 'period' | 'attempts'>>> {
    return this.plans
      .createQueryBuilder('p')
      .select(['p.id', 'p.period', 'p.attempts'])
      .where(`p.state IN ('active', 'past_due')`)
      .andWhere('p.nextChargeAt <= :now', { now })
      .andWhere('(p.claimedUntil IS NULL OR p.claimedUntil < :now)')
      .orderBy('p.nextChargeAt')
      .limit(limit)
      .getMany();
  }

  /**
   * Takes a plan's due charge for one runner: of replicas that try at once, one gets the plan, the
   * others null. The hold lapses after a while, so a runner that died is replaced.
   */
  async claim(id: string, now: Date): Promise<PlanRow | null> {
    const claimed = await sql.maybeOne<PlanEntity>(
      this.db,
      `UPDATE "commerce"."plan" SET "claimed_until" = $2::timestamptz + make_interval(secs => $3)
       WHERE "id" = $1 AND "state" IN ('active', 'past_due') AND "next_charge_at" <= $2
         AND ("claimed_until" IS NULL OR "claimed_until" < $2)
       RETURNING ${entityColumns(this.db, PlanEntity)}`,
      [id, now, CLAIM_SECONDS],
    );
    return claimed ? toPlan(claimed) : null;
  }

  /** How many live plans (active or past due) each card pays for. */
  async liveCountsByCard(methodIds: string[]): Promise<Map<string, number>> {
    const rows = await this.plans
      .createQueryBuilder('p')
      .select('p.methodId', 'methodId')
      .addSelect('count(*)::int', 'n')
      .where({ methodId: In(methodIds), state: In(['active', 'past_due']) })
      .groupBy('p.methodId')
      .getRawMany<{ methodId: string; n: number }>();
    return new Map(rows.map((r) => [r.methodId, r.n]));
  }

  /** In a card's transaction: the live plans it pays for, locked (FOR UPDATE), so none is charged with it or moved to it meanwhile. */
  async lockLiveOfCard(manager: TransactionManager, methodId: string): Promise<string[]> {
    const rows = await manager.getRepository(PlanEntity).find({
      select: { id: true },
      where: { methodId, state: In(['active', 'past_due']) },
      order: { id: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
    return rows.map((r) => r.id);
  }

  /** In a card's transaction: these plans are paid with another card from now on. */
  async moveToCard(manager: TransactionManager, planIds: string[], methodId: string): Promise<void> {
    if (planIds.length > 0) await manager.getRepository(PlanEntity).update({ id: In(planIds) }, { methodId, modified: () => 'now()' });
  }

  /** Lets go of a claim without a result (the provider could not be reached: the try is repeated). */
  async release(id: string): Promise<void> {
    await this.plans.update({ id }, { claimedUntil: null });
  }

  /**
   * Records the outcome of a claimed charge, in one transaction: the period's charge row (once: a
   * period that is paid stays paid) and the plan's next step, only if the plan is still at that
   * period and try. Answers false when another runner recorded it first.
   */
  async record(plan: PlanRow, dueAt: Date, chargeId: string, result: ChargeResult, events: CommerceEventRecord[] = []): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const attempts = plan.attempts + 1;
      const updated = await sql.execute(
        tx,
        `UPDATE "commerce"."plan" SET
           "period" = CASE WHEN $4 THEN "period" + 1 ELSE "period" END,
           "attempts" = CASE WHEN $4 THEN 0 ELSE "attempts" + 1 END,
           "state" = CASE WHEN "state" = 'cancelled' THEN 'cancelled' ELSE $5 END,
           "next_charge_at" = CASE WHEN "state" = 'cancelled' THEN NULL ELSE $6::timestamptz END,
           "last_error" = $7, "claimed_until" = NULL, "modified" = now()
         WHERE "id" = $1 AND "period" = $2 AND "attempts" = $3`,
        [
          plan.id,
          plan.period,
          plan.attempts,
          result.paid,
          result.paid ? 'active' : result.state,
          result.next,
          result.paid ? null : result.error,
        ],
      );
      if (updated === 0) return false;
      await sql.execute(
        tx,
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
