import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppError, type PaymentProviderId } from '@tinkerdesk/contracts';
import { sql, type IdempotentCreate, type SqlRunner, type StoredAnswer, type TransactionManager } from '@tinkerdesk/persistence';
import { Not, type DataSource, type EntityManager, type Repository } from 'typeorm';
import { COMMERCE_KEYS } from '../database/idempotency-keys.js';
import { recordCommerceEvents, type CommerceEventRecord } from '../events/commerce-events.js';
import { PaymentCustomerEntity } from './payment-customer.entity.js';
import { PaymentMethodEntity } from './payment-method.entity.js';

/** A saved card of a payer (how many plans it pays for is the plans feature's to say: MethodsService asks it). */
export type CardRow = PaymentMethodEntity;

/**
 * What a card's deletion asks of the plans it pays for, in the card's transaction (the plans
 * feature's rows: PlansService does it with the manager given).
 */
export interface CardPlansInTransaction {
  /** The live plans (active or past due) the card pays for, locked: none is charged with it or moved to it meanwhile. */
  lockLive(manager: TransactionManager, methodId: string): Promise<string[]>;
  /** Those plans are paid with another card of the payer from now on. */
  moveTo(manager: TransactionManager, planIds: string[], methodId: string): Promise<void>;
}

/** A card, shaped like CardRow. */
const SELECT = `SELECT m."id", m."user_id" AS "userId", m."provider", m."ref", m."customer_ref" AS "customerRef", m."brand", m."last4",
    m."exp_month" AS "expMonth", m."exp_year" AS "expYear", m."is_default" AS "isDefault", m."created"
  FROM "commerce"."payment_method" m`;

/** Serialises the changes of one payer's cards (its default among them) for the transaction. */
async function lockPayer(tx: EntityManager, userId: string): Promise<void> {
  await sql.execute(tx, `SELECT pg_advisory_xact_lock(hashtext($1))`, [`payment_method:${userId}`]);
}

const methodById = (db: SqlRunner, id: string) => sql.one<CardRow>(db, `${SELECT} WHERE m."id" = $1`, [id]);

/** The only place that touches saved cards and the payers' customers at the providers. */
@Injectable()
export class MethodsRepository {
  private readonly customers: Repository<PaymentCustomerEntity>;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.customers = db.getRepository(PaymentCustomerEntity);
  }

  async customerRef(userId: string, provider: PaymentProviderId): Promise<string | null> {
    return (await this.customers.findOneBy({ userId, provider }))?.ref ?? null;
  }

  async saveCustomer(userId: string, provider: PaymentProviderId, ref: string): Promise<void> {
    await this.customers.createQueryBuilder().insert().values({ userId, provider, ref }).orIgnore().updateEntity(false).execute();
  }

  /**
   * Keeps a card once: a second call for the same provider card (the page came back twice) answers
   * the first row. The payer's first card of a provider becomes its default. `events` (of a card kept
   * now) are recorded in the outbox with it.
   */
  async insert(
    row: Omit<CardRow, 'isDefault' | 'created'>,
    events: (kept: CardRow) => CommerceEventRecord[] = () => [],
  ): Promise<{ row: CardRow; created: boolean }> {
    return this.db.transaction(async (tx) => {
      await lockPayer(tx, row.userId);
      const inserted = await sql.rows<{ id: string }>(
        tx,
        `INSERT INTO "commerce"."payment_method" ("id", "user_id", "provider", "ref", "customer_ref", "brand", "last4", "exp_month", "exp_year", "is_default")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
           NOT EXISTS (SELECT 1 FROM "commerce"."payment_method" WHERE "user_id" = $2 AND "provider" = $3 AND "is_default"))
         ON CONFLICT ("provider", "ref") DO NOTHING RETURNING "id"`,
        [row.id, row.userId, row.provider, row.ref, row.customerRef, row.brand, row.last4, row.expMonth, row.expYear],
      );
      const found = await sql.one<CardRow>(tx, `${SELECT} WHERE m."provider" = $1 AND m."ref" = $2`, [row.provider, row.ref]);
      if (inserted.length === 1) await recordCommerceEvents(tx, events(found));
      return { row: found, created: inserted.length === 1 };
    });
  }

  list(userId: string): Promise<CardRow[]> {
    return sql.rows<CardRow>(this.db, `${SELECT} WHERE m."user_id" = $1 ORDER BY m."created", m."id"`, [userId]);
  }

  find(id: string, userId: string): Promise<CardRow | null> {
    return this.findWith(this.db, id, userId);
  }

  private async findWith(db: SqlRunner, id: string, userId: string): Promise<CardRow | null> {
    return (await sql.maybeOne<CardRow>(db, `${SELECT} WHERE m."id" = $1 AND m."user_id" = $2`, [id, userId])) ?? null;
  }

  /** What charges a saved card at its provider (whoever holds it: the plan scheduler asks with the plan's card id). */
  async card(id: string): Promise<{ ref: string; customerRef: string | null } | null> {
    const card = await this.db.getRepository(PaymentMethodEntity).findOne({ select: { ref: true, customerRef: true }, where: { id } });
    return card ? { ref: card.ref, customerRef: card.customerRef } : null;
  }

  /** Makes a card its provider's default for the payer (one default per provider), with `events` recorded in the outbox. */
  async setDefault(id: string, userId: string, events: (card: CardRow) => CommerceEventRecord[] = () => []): Promise<CardRow | null> {
    return this.db.transaction(async (tx) => {
      await lockPayer(tx, userId);
      const methods = tx.getRepository(PaymentMethodEntity);
      const card = await methods.findOne({ select: { provider: true }, where: { id, userId } });
      if (!card) return null;
      await methods.update({ userId, provider: card.provider, isDefault: true, id: Not(id) }, { isDefault: false });
      await methods.update({ id }, { isDefault: true });
      const changed = await methodById(tx, id);
      await recordCommerceEvents(tx, events(changed));
      return changed;
    });
  }

  /**
   * Deletes a card. The live plans it pays for (locked and moved by `plans`, the plans feature) move to
   * `replacementId` (another card of the payer and of the same provider) in the same transaction;
   * without one, a card that pays for a live plan is kept and CONFLICT answered. The newest other card of the provider becomes the default when the
   * default goes. Answers the deleted row, or null when the payer has no such card. `events` (of the
   * deleted card and the plans moved) are recorded in the outbox with the change.
   */
  async delete(
    id: string,
    userId: string,
    replacementId: string | undefined,
    plans: CardPlansInTransaction,
    events: (deleted: { row: CardRow; moved: string[] }) => CommerceEventRecord[] = () => [],
  ): Promise<{ row: CardRow; moved: string[] } | null> {
    return this.db.transaction(async (tx) => {
      await lockPayer(tx, userId);
      const row = await this.findWith(tx, id, userId);
      if (!row) return null;
      const methods = tx.getRepository(PaymentMethodEntity);
      // Lock the plans it pays for, so none is charged with it or moved to it meanwhile.
      const live = await plans.lockLive(tx, id);
      if (live.length > 0) {
        if (!replacementId)
          throw new AppError(
            'CONFLICT',
            `this card pays for ${live.length === 1 ? 'a plan' : `${live.length} plans`}: choose another card for ${live.length === 1 ? 'it' : 'them'} first (replacement)`,
          );
        if (replacementId === id) throw new AppError('UNPROCESSABLE', 'the replacement must be another card');
        const other = await methods.findOne({ select: { provider: true }, where: { id: replacementId, userId } });
        if (!other) throw new AppError('NOT_FOUND', 'no such replacement card');
        if (other.provider !== row.provider)
          throw new AppError('UNPROCESSABLE', `the replacement must be a card kept by ${row.provider}, as the plans' sellers take`);
        await plans.moveTo(tx, live, replacementId);
      }
      await methods.delete({ id });
      if (row.isDefault) {
        await sql.execute(
          tx,
          `UPDATE "commerce"."payment_method" SET "is_default" = true WHERE "id" = (
             SELECT "id" FROM "commerce"."payment_method" WHERE "user_id" = $1 AND "provider" = $2 ORDER BY "created" DESC, "id" DESC LIMIT 1)`,
          [userId, row.provider],
        );
      }
      const deleted = { row, moved: live };
      await recordCommerceEvents(tx, events(deleted));
      return deleted;
    });
  }

  /**
   * A card setup under an Idempotency-Key: it asks the provider, so the key is claimed outside a
   * transaction (IdempotencyKeys.outside) and the page's answer stored after it.
   */
  setupOnce<T extends StoredAnswer>(
    create: IdempotentCreate | undefined,
    work: () => Promise<T>,
  ): Promise<{ answer: T; replayed: boolean }> {
    return COMMERCE_KEYS.outside(this.db, create, work);
  }
}
