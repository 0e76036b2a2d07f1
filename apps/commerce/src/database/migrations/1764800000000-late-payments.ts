import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payments that landed on an order that could no longer take them (cancelled meanwhile, or paid by
 * another payment): each is refunded automatically, once; `refund_pending` until the provider took
 * the refund (a retry finishes it), then `refunded`. `attempt_at` is the lease of the replica trying.
 */
export class LatePayments1764800000000 implements MigrationInterface {
  name = 'LatePayments1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "commerce"."late_payment" (
      "provider" text NOT NULL,
      "payment_id" text NOT NULL,
      "order_id" uuid NOT NULL REFERENCES "commerce"."order" ("id") ON DELETE CASCADE,
      "session_id" text NOT NULL,
      "account" text NOT NULL,
      "amount" integer NOT NULL CHECK ("amount" >= 0),
      "state" text NOT NULL DEFAULT 'refund_pending' CHECK ("state" IN ('refund_pending', 'refunded')),
      "attempts" integer NOT NULL DEFAULT 0,
      "attempt_at" timestamptz NOT NULL DEFAULT now(),
      "last_error" text,
      "refunded_at" timestamptz,
      "created" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("provider", "payment_id")
    )`);
    await q.query(`CREATE INDEX "late_payment_order_idx" ON "commerce"."late_payment" ("order_id")`);
    await q.query(`CREATE INDEX "late_payment_pending_idx" ON "commerce"."late_payment" ("attempt_at") WHERE "state" = 'refund_pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "commerce"."late_payment"`);
  }
}
