import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Saved cards (payment methods), plans (recurring payments) and their charges; the sandbox processor
 * learns to save cards (setup sessions) and charge them with nobody present; the timeline names plans.
 */
export class PlansMethods1764700000000 implements MigrationInterface {
  name = 'PlansMethods1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "commerce"."sandbox_session" ALTER COLUMN "order_id" DROP NOT NULL`);
    await q.query(
      `ALTER TABLE "commerce"."sandbox_session" ADD COLUMN "mode" text NOT NULL DEFAULT 'payment' CHECK ("mode" IN ('payment', 'setup'))`,
    );
    await q.query(`ALTER TABLE "commerce"."sandbox_session" ADD COLUMN "user_id" uuid`);
    await q.query(`ALTER TABLE "commerce"."sandbox_session" ADD COLUMN "card_id" text`);
    // A card waiting for its 3-D Secure step: brand, last 4, expiry (never the number).
    await q.query(`ALTER TABLE "commerce"."sandbox_session" ADD COLUMN "pending_card" jsonb`);
    await q.query(`CREATE TABLE "commerce"."sandbox_card" (
      "id" text PRIMARY KEY,
      "user_id" uuid NOT NULL,
      "brand" text NOT NULL,
      "last4" text NOT NULL,
      "exp_month" integer NOT NULL,
      "exp_year" integer NOT NULL,
      "charges_fail" boolean NOT NULL,
      "detached" boolean NOT NULL DEFAULT false,
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE "commerce"."sandbox_charge" (
      "id" text PRIMARY KEY,
      "idempotency_key" text NOT NULL UNIQUE,
      "card_id" text NOT NULL REFERENCES "commerce"."sandbox_card" ("id"),
      "account" text NOT NULL,
      "amount" integer NOT NULL,
      "paid" boolean NOT NULL,
      "error" text,
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE "commerce"."payment_customer" (
      "user_id" uuid NOT NULL,
      "provider" text NOT NULL,
      "ref" text NOT NULL,
      "created" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("user_id", "provider")
    )`);
    await q.query(`CREATE TABLE "commerce"."payment_method" (
      "id" uuid PRIMARY KEY,
      "user_id" uuid NOT NULL,
      "provider" text NOT NULL,
      "ref" text NOT NULL,
      "customer_ref" text,
      "brand" text NOT NULL,
      "last4" text NOT NULL,
      "exp_month" integer NOT NULL,
      "exp_year" integer NOT NULL,
      "is_default" boolean NOT NULL DEFAULT false,
      "created" timestamptz NOT NULL DEFAULT clock_timestamp(),
      UNIQUE ("provider", "ref")
    )`);
    await q.query(`CREATE INDEX "payment_method_user_idx" ON "commerce"."payment_method" ("user_id", "created")`);
    await q.query(
      `CREATE UNIQUE INDEX "payment_method_default_idx" ON "commerce"."payment_method" ("user_id", "provider") WHERE "is_default"`,
    );
    await q.query(`CREATE TABLE "commerce"."plan" (
      "id" uuid PRIMARY KEY,
      "payer_id" uuid NOT NULL,
      "seller_id" uuid NOT NULL,
      "service_id" uuid NOT NULL REFERENCES "commerce"."service" ("id"),
      "product_id" uuid REFERENCES "commerce"."product" ("id") ON DELETE SET NULL,
      "product" jsonb NOT NULL,
      "provider" text NOT NULL,
      "account" text NOT NULL,
      "interval" text NOT NULL CHECK ("interval" IN ('month', 'quarter', 'year')),
      "reminder_day" integer NOT NULL CHECK ("reminder_day" = -1 OR "reminder_day" BETWEEN 1 AND 28),
      "start_at" timestamptz NOT NULL,
      "time_zone" text NOT NULL,
      "method_id" uuid REFERENCES "commerce"."payment_method" ("id") ON DELETE SET NULL,
      "state" text NOT NULL CHECK ("state" IN ('active', 'past_due', 'unpaid', 'cancelled')),
      "period" integer NOT NULL DEFAULT 0,
      "attempts" integer NOT NULL DEFAULT 0,
      "next_charge_at" timestamptz,
      "claimed_until" timestamptz,
      "last_error" text,
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now(),
      "cancelled_at" timestamptz
    )`);
    await q.query(`CREATE INDEX "plan_payer_idx" ON "commerce"."plan" ("payer_id", "created" DESC)`);
    await q.query(`CREATE INDEX "plan_seller_idx" ON "commerce"."plan" ("seller_id", "created" DESC)`);
    await q.query(`CREATE INDEX "plan_due_idx" ON "commerce"."plan" ("next_charge_at") WHERE "state" IN ('active', 'past_due')`);
    await q.query(`CREATE TABLE "commerce"."plan_charge" (
      "id" uuid PRIMARY KEY,
      "plan_id" uuid NOT NULL REFERENCES "commerce"."plan" ("id") ON DELETE CASCADE,
      "period" integer NOT NULL,
      "due_at" timestamptz NOT NULL,
      "state" text NOT NULL CHECK ("state" IN ('paid', 'failed')),
      "amount" integer NOT NULL,
      "attempts" integer NOT NULL,
      "payment_ref" text,
      "error" text,
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now(),
      UNIQUE ("plan_id", "period")
    )`);
    await q.query(`ALTER TABLE "commerce"."timeline_event" ADD COLUMN "plan_id" uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "commerce"."timeline_event" DROP COLUMN "plan_id"`);
    await q.query(`DROP TABLE "commerce"."plan_charge"`);
    await q.query(`DROP TABLE "commerce"."plan"`);
    await q.query(`DROP TABLE "commerce"."payment_method"`);
    await q.query(`DROP TABLE "commerce"."payment_customer"`);
    await q.query(`DROP TABLE "commerce"."sandbox_charge"`);
    await q.query(`DROP TABLE "commerce"."sandbox_card"`);
    await q.query(`ALTER TABLE "commerce"."sandbox_session" DROP COLUMN "pending_card"`);
    await q.query(`ALTER TABLE "commerce"."sandbox_session" DROP COLUMN "card_id"`);
    await q.query(`ALTER TABLE "commerce"."sandbox_session" DROP COLUMN "user_id"`);
    await q.query(`ALTER TABLE "commerce"."sandbox_session" DROP COLUMN "mode"`);
    await q.query(`DELETE FROM "commerce"."sandbox_session" WHERE "order_id" IS NULL`);
    await q.query(`ALTER TABLE "commerce"."sandbox_session" ALTER COLUMN "order_id" SET NOT NULL`);
  }
}
