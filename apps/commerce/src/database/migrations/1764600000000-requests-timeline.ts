import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Payment requests (a seller asks a person to pay for a product) and the account timeline. */
export class RequestsTimeline1764600000000 implements MigrationInterface {
  name = 'RequestsTimeline1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "commerce"."payment_request" (
      "id" uuid PRIMARY KEY,
      "seller_id" uuid NOT NULL,
      "service_id" uuid NOT NULL REFERENCES "commerce"."service" ("id"),
      "product_id" uuid REFERENCES "commerce"."product" ("id") ON DELETE SET NULL,
      "product" jsonb NOT NULL,
      "email" text NOT NULL,
      "note" text NOT NULL DEFAULT '',
      "key_hash" text NOT NULL,
      "payer_id" uuid,
      "state" text NOT NULL CHECK ("state" IN ('open', 'accepted', 'paid', 'declined', 'cancelled', 'expired')),
      "order_id" uuid REFERENCES "commerce"."order" ("id") ON DELETE SET NULL,
      "expires" timestamptz NOT NULL,
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX "payment_request_seller_idx" ON "commerce"."payment_request" ("seller_id", "created" DESC)`);
    await q.query(`CREATE INDEX "payment_request_email_idx" ON "commerce"."payment_request" ("email", "created" DESC)`);
    await q.query(
      `CREATE UNIQUE INDEX "payment_request_order_idx" ON "commerce"."payment_request" ("order_id") WHERE "order_id" IS NOT NULL`,
    );
    await q.query(`CREATE TABLE "commerce"."timeline_event" (
      "id" uuid PRIMARY KEY,
      "user_id" uuid NOT NULL,
      "kind" text NOT NULL,
      "title" text NOT NULL,
      "amount" integer,
      "order_id" uuid,
      "request_id" uuid,
      "created" timestamptz NOT NULL DEFAULT clock_timestamp()
    )`);
    await q.query(`CREATE INDEX "timeline_event_user_idx" ON "commerce"."timeline_event" ("user_id", "created" DESC, "id" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "commerce"."timeline_event"`);
    await q.query(`DROP TABLE "commerce"."payment_request"`);
  }
}
