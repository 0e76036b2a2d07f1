import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Selling (issue 16): products, orders with their receipts, replies and payment sessions, the sandbox
 * processor's sessions, provider events applied once, and idempotency keys. Money is integer cents.
 * Part 2 (requests, plans, payment methods, timeline) adds its own tables beside these.
 */
export class Selling1764500000000 implements MigrationInterface {
  name = 'Selling1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "commerce"."product" (
      "id" uuid PRIMARY KEY,
      "service_id" uuid NOT NULL REFERENCES "commerce"."service" ("id") ON DELETE CASCADE,
      "user_id" uuid NOT NULL,
      "name" text NOT NULL,
      "description" text NOT NULL DEFAULT '',
      "price" integer NOT NULL CHECK ("price" BETWEEN 50 AND 99999999),
      "currency" text NOT NULL DEFAULT 'USD' CHECK ("currency" = 'USD'),
      "image" text,
      "active" boolean NOT NULL DEFAULT true,
      "shipping" jsonb,
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX "product_service_idx" ON "commerce"."product" ("service_id", "created")`);
    await q.query(`CREATE SEQUENCE "commerce"."receipt_number_seq"`);
    await q.query(`CREATE TABLE "commerce"."order" (
      "id" uuid PRIMARY KEY,
      "service_id" uuid NOT NULL REFERENCES "commerce"."service" ("id"),
      "product_id" uuid REFERENCES "commerce"."product" ("id") ON DELETE SET NULL,
      "seller_id" uuid NOT NULL,
      "buyer_id" uuid,
      "email" text NOT NULL,
      "note" text NOT NULL DEFAULT '',
      "share" boolean NOT NULL DEFAULT false,
      "state" text NOT NULL CHECK ("state" IN ('pending', 'paid', 'failed', 'fulfilled', 'cancelled', 'refunded')),
      "provider" text NOT NULL,
      "account" text NOT NULL,
      "vendor" text NOT NULL,
      "items" jsonb NOT NULL,
      "amount" integer NOT NULL CHECK ("amount" > 0),
      "currency" text NOT NULL,
      "shipping" jsonb,
      "failure" text,
      "payment_id" text,
      "fulfil_note" text,
      "paid_at" timestamptz,
      "fulfilled_at" timestamptz,
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX "order_seller_idx" ON "commerce"."order" ("seller_id", "created" DESC)`);
    await q.query(`CREATE INDEX "order_buyer_idx" ON "commerce"."order" ("buyer_id", "created" DESC) WHERE "buyer_id" IS NOT NULL`);
    await q.query(`CREATE INDEX "order_payment_idx" ON "commerce"."order" ("payment_id") WHERE "payment_id" IS NOT NULL`);
    await q.query(`CREATE TABLE "commerce"."receipt" (
      "order_id" uuid PRIMARY KEY REFERENCES "commerce"."order" ("id") ON DELETE CASCADE,
      "number" text NOT NULL UNIQUE,
      "amount" integer NOT NULL,
      "currency" text NOT NULL,
      "items" jsonb NOT NULL,
      "email" text NOT NULL,
      "seller_name" text NOT NULL,
      "service_name" text NOT NULL,
      "support_email" text,
      "paid_at" timestamptz NOT NULL
    )`);
    await q.query(`CREATE TABLE "commerce"."order_reply" (
      "id" uuid PRIMARY KEY,
      "order_id" uuid NOT NULL REFERENCES "commerce"."order" ("id") ON DELETE CASCADE,
      "author_id" uuid NOT NULL,
      "author_role" text NOT NULL CHECK ("author_role" IN ('buyer', 'seller')),
      "note" text NOT NULL,
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX "order_reply_order_idx" ON "commerce"."order_reply" ("order_id", "created")`);
    await q.query(`CREATE TABLE "commerce"."payment_session" (
      "id" text PRIMARY KEY,
      "order_id" uuid NOT NULL REFERENCES "commerce"."order" ("id") ON DELETE CASCADE,
      "provider" text NOT NULL,
      "account" text NOT NULL,
      "url" text NOT NULL,
      "status" text NOT NULL CHECK ("status" IN ('open', 'complete', 'expired')),
      "amount" integer NOT NULL,
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now()
    )`);
    // One open payment session per order: two pays at once can never make two charges.
    await q.query(`CREATE UNIQUE INDEX "payment_session_open_idx" ON "commerce"."payment_session" ("order_id") WHERE "status" = 'open'`);
    await q.query(`CREATE TABLE "commerce"."sandbox_session" (
      "id" text PRIMARY KEY,
      "order_id" uuid NOT NULL,
      "account" text NOT NULL,
      "amount" integer NOT NULL,
      "currency" text NOT NULL,
      "email" text NOT NULL,
      "product_name" text NOT NULL,
      "seller_name" text NOT NULL,
      "status" text NOT NULL CHECK ("status" IN ('open', 'requires_action', 'complete', 'expired')),
      "error" text,
      "payment_intent" text,
      "refunded" boolean NOT NULL DEFAULT false,
      "success_url" text NOT NULL,
      "cancel_url" text NOT NULL,
      "expires_at" timestamptz NOT NULL,
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE "commerce"."provider_event" (
      "id" text NOT NULL,
      "provider" text NOT NULL,
      "type" text NOT NULL,
      "received" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("provider", "id")
    )`);
    await q.query(`CREATE TABLE "commerce"."idempotency_key" (
      "scope" text NOT NULL,
      "key" text NOT NULL,
      "fingerprint" text NOT NULL,
      "response" jsonb,
      "created" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("scope", "key")
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'idempotency_key',
      'provider_event',
      'sandbox_session',
      'payment_session',
      'order_reply',
      'receipt',
      'order',
      'product',
    ]) {
      await q.query(`DROP TABLE "commerce"."${table}"`);
    }
    await q.query(`DROP SEQUENCE "commerce"."receipt_number_seq"`);
  }
}
