import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppError, type PaymentProviderId } from '@tinkerdesk/contracts';
import type { DataSource } from 'typeorm';

/** A saved card of a payer (the number stays at the provider). */
export interface MethodRow {
  id: string;
  userId: string;
  provider: PaymentProviderId;
  /** The provider's id of the card (pm_...). */
  ref: string;
  customerRef: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  isDefault: boolean;
  /** Live plans (active or past due) it pays for. */
  plans: number;
  created: Date;
}

const LIVE = `('active', 'past_due')`;

const SELECT = `SELECT m.*, (SELECT count(*)::int FROM "commerce"."plan" p WHERE p."method_id" = m."id" AND p."state" IN ${LIVE}) AS "plans"
  FROM "commerce"."payment_method" m`;

const toRow = (r: Record<string, unknown>): MethodRow => ({
  id: r.id as string,
  userId: r.user_id as string,
  provider: r.provider as PaymentProviderId,
  ref: r.ref as string,
  customerRef: (r.customer_ref as string | null) ?? null,
  brand: r.brand as string,
  last4: r.last4 as string,
  expMonth: r.exp_month as number,
  expYear: r.exp_year as number,
  isDefault: r.is_default as boolean,
  plans: (r.plans as number | undefined) ?? 0,
  created: r.created as Date,
});

/** The only place that touches saved cards and the payers' customers at the providers. */
@Injectable()
export class MethodsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async customerRef(userId: string, provider: PaymentProviderId): Promise<string | null> {
    const rows = (await this.db.query(`SELECT "ref" FROM "commerce"."payment_customer" WHERE "user_id" = $1 AND "provider" = $2`, [
      userId,
      provider,
    ])) as Array<{ ref: string }>;
    return rows[0]?.ref ?? null;
  }

  async saveCustomer(userId: string, provider: PaymentProviderId, ref: string): Promise<void> {
    await this.db.query(
      `INSERT INTO "commerce"."payment_customer" ("user_id", "provider", "ref") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [userId, provider, ref],
    );
  }

  /**
   * Keeps a card once: a second call for the same provider card (the page came back twice) answers
   * the first row. The payer's first card of a provider becomes its default.
   */
  async insert(row: Omit<MethodRow, 'isDefault' | 'plans' | 'created'>): Promise<{ row: MethodRow; created: boolean }> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`payment_method:${row.userId}`]);
      const inserted = (await tx.query(
        `INSERT INTO "commerce"."payment_method" ("id", "user_id", "provider", "ref", "customer_ref", "brand", "last4", "exp_month", "exp_year", "is_default")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
           NOT EXISTS (SELECT 1 FROM "commerce"."payment_method" WHERE "user_id" = $2 AND "provider" = $3 AND "is_default"))
         ON CONFLICT ("provider", "ref") DO NOTHING RETURNING "id"`,
        [row.id, row.userId, row.provider, row.ref, row.customerRef, row.brand, row.last4, row.expMonth, row.expYear],
      )) as Array<{ id: string }>;
      const found = (await tx.query(`${SELECT} WHERE m."provider" = $1 AND m."ref" = $2`, [row.provider, row.ref])) as Array<
        Record<string, unknown>
      >;
      return { row: toRow(found[0]!), created: inserted.length === 1 };
    });
  }

  async list(userId: string): Promise<MethodRow[]> {
    const rows = (await this.db.query(`${SELECT} WHERE m."user_id" = $1 ORDER BY m."created", m."id"`, [userId])) as Array<
      Record<string, unknown>
    >;
    return rows.map(toRow);
  }

  async find(id: string, userId: string): Promise<MethodRow | null> {
    const rows = (await this.db.query(`${SELECT} WHERE m."id" = $1 AND m."user_id" = $2`, [id, userId])) as Array<Record<string, unknown>>;
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** Makes a card its provider's default for the payer (one default per provider). */
  async setDefault(id: string, userId: string): Promise<MethodRow | null> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`payment_method:${userId}`]);
      const rows = (await tx.query(`SELECT "provider" FROM "commerce"."payment_method" WHERE "id" = $1 AND "user_id" = $2`, [
        id,
        userId,
      ])) as Array<{ provider: string }>;
      if (!rows[0]) return null;
      await tx.query(
        `UPDATE "commerce"."payment_method" SET "is_default" = false WHERE "user_id" = $1 AND "provider" = $2 AND "is_default" AND "id" <> $3`,
        [userId, rows[0].provider, id],
      );
      await tx.query(`UPDATE "commerce"."payment_method" SET "is_default" = true WHERE "id" = $1`, [id]);
      const found = (await tx.query(`${SELECT} WHERE m."id" = $1`, [id])) as Array<Record<string, unknown>>;
      return toRow(found[0]!);
    });
  }

  /**
   * Deletes a card. The live plans it pays for move to `replacementId` (another card of the payer and
   * of the same provider) in the same transaction; without one, a card that pays for a live plan is
   * kept and CONFLICT answered. The newest other card of the provider becomes the default when the
   * default goes. Answers the deleted row, or null when the payer has no such card.
   */
  async delete(id: string, userId: string, replacementId: string | undefined): Promise<{ row: MethodRow; moved: string[] } | null> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`payment_method:${userId}`]);
      const found = (await tx.query(`${SELECT} WHERE m."id" = $1 AND m."user_id" = $2`, [id, userId])) as Array<Record<string, unknown>>;
      if (!found[0]) return null;
      const row = toRow(found[0]);
      // Lock the plans it pays for, so none is charged with it or moved to it meanwhile.
      const live = (await tx.query(
        `SELECT "id" FROM "commerce"."plan" WHERE "method_id" = $1 AND "state" IN ${LIVE} ORDER BY "id" FOR UPDATE`,
        [id],
      )) as Array<{ id: string }>;
      if (live.length > 0) {
        if (!replacementId)
          throw new AppError(
            'CONFLICT',
            `this card pays for ${live.length === 1 ? 'a plan' : `${live.length} plans`}: choose another card for ${live.length === 1 ? 'it' : 'them'} first (replacement)`,
          );
        if (replacementId === id) throw new AppError('UNPROCESSABLE', 'the replacement must be another card');
        const other = (await tx.query(`SELECT "provider" FROM "commerce"."payment_method" WHERE "id" = $1 AND "user_id" = $2`, [
          replacementId,
          userId,
        ])) as Array<{ provider: string }>;
        if (!other[0]) throw new AppError('NOT_FOUND', 'no such replacement card');
        if (other[0].provider !== row.provider)
          throw new AppError('UNPROCESSABLE', `the replacement must be a card kept by ${row.provider}, as the plans' sellers take`);
        await tx.query(`UPDATE "commerce"."plan" SET "method_id" = $2, "modified" = now() WHERE "id" = ANY($1::uuid[])`, [
          live.map((p) => p.id),
          replacementId,
        ]);
      }
      await tx.query(`DELETE FROM "commerce"."payment_method" WHERE "id" = $1`, [id]);
      if (row.isDefault) {
        await tx.query(
          `UPDATE "commerce"."payment_method" SET "is_default" = true WHERE "id" = (
             SELECT "id" FROM "commerce"."payment_method" WHERE "user_id" = $1 AND "provider" = $2 ORDER BY "created" DESC, "id" DESC LIMIT 1)`,
          [userId, row.provider],
        );
      }
      return { row, moved: live.map((p) => p.id) };
    });
  }
}
