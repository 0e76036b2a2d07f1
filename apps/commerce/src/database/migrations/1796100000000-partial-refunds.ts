import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Partial refunds: what an order has refunded (`refunded_amount`, cents, never more than its amount)
 * and one row per refund (`order_refund`: `pending` while the provider is asked, the amount reserved
 * under the order's lock; `done` once the provider took it). Fully refunded orders are backfilled with
 * their amount and one done row. The sandbox keeps what it refunded per payment and each refund's
 * idempotency key, as Stripe does.
 */
export class PartialRefunds1796100000000 implements MigrationInterface {
  name = 'PartialRefunds1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "commerce"."order" ADD COLUMN "refunded_amount" integer NOT NULL DEFAULT 0
      CONSTRAINT "order_refunded_amount_range" CHECK ("refunded_amount" >= 0 AND "refunded_amount" <= "amount")`);
    await q.query(`UPDATE "commerce"."order" SET "refunded_amount" = "amount" WHERE "state" = 'refunded'`);
    await q.query(`CREATE TABLE "commerce"."order_refund" (
      "id" uuid PRIMARY KEY,
      "order_id" uuid NOT NULL REFERENCES "commerce"."order" ("id") ON DELETE CASCADE,
      "amount" integer NOT NULL CHECK ("amount" > 0),
      "reason" text,
      "state" text NOT NULL DEFAULT 'pending' CHECK ("state" IN ('pending', 'done')),
      "provider_refund_id" text,
      "created" timestamptz NOT NULL DEFAULT now(),
      "refunded_at" timestamptz
    )`);
    await q.query(`CREATE INDEX "order_refund_order_idx" ON "commerce"."order_refund" ("order_id", "created")`);
    await q.query(`INSERT INTO "commerce"."order_refund" ("id", "order_id", "amount", "state", "created", "refunded_at")
      SELECT gen_random_uuid(), "id", "amount", 'done', "modified", "modified" FROM "commerce"."order" WHERE "state" = 'refunded'`);
    await q.query(`ALTER TABLE "commerce"."sandbox_session" ADD COLUMN "refunded_amount" integer NOT NULL DEFAULT 0`);
    await q.query(`UPDATE "commerce"."sandbox_session" SET "refunded_amount" = "amount" WHERE "refunded"`);
    await q.query(`CREATE TABLE "commerce"."sandbox_refund" (
      "idempotency_key" text PRIMARY KEY,
      "id" text NOT NULL,
      "payment_intent" text NOT NULL,
      "account" text NOT NULL,
      "amount" integer NOT NULL CHECK ("amount" > 0),
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "commerce"."sandbox_refund"`);
    await q.query(`ALTER TABLE "commerce"."sandbox_session" DROP COLUMN "refunded_amount"`);
    await q.query(`DROP TABLE "commerce"."order_refund"`);
    await q.query(`ALTER TABLE "commerce"."order" DROP COLUMN "refunded_amount"`);
  }
}
