import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Terminals (registered browsers), their Web Push subscriptions, and the shares in their inboxes. */
export class Terminals1764800000000 implements MigrationInterface {
  name = 'Terminals1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "terminals"."terminal" (
      "id" uuid PRIMARY KEY,
      "user_id" uuid NOT NULL,
      "label" text NOT NULL,
      "send" boolean NOT NULL,
      "receive" boolean NOT NULL,
      "active" boolean NOT NULL,
      "details" jsonb NOT NULL DEFAULT '{}',
      "platform" text NOT NULL CHECK ("platform" IN ('Browser (mobile)', 'Browser (desktop)')),
      "capabilities" text[] NOT NULL DEFAULT '{}',
      "remote" boolean NOT NULL DEFAULT false,
      "destination" uuid REFERENCES "terminals"."terminal" ("id") ON DELETE SET NULL,
      "token_hash" text NOT NULL UNIQUE,
      "subscription" jsonb,
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX "terminal_user_idx" ON "terminals"."terminal" ("user_id", "created")`);
    await q.query(`CREATE TABLE "terminals"."share" (
      "id" uuid PRIMARY KEY,
      "terminal_id" uuid NOT NULL REFERENCES "terminals"."terminal" ("id") ON DELETE CASCADE,
      "user_id" uuid NOT NULL,
      "from_terminal_id" uuid,
      "content_type" text NOT NULL CHECK ("content_type" IN ('text/x-uri', 'text/plain')),
      "content" text NOT NULL,
      "description" text NOT NULL DEFAULT '',
      "push" text NOT NULL CHECK ("push" IN ('none', 'pending', 'sent', 'failed')),
      "push_error" text,
      "created" timestamptz NOT NULL DEFAULT clock_timestamp()
    )`);
    await q.query(`CREATE INDEX "share_terminal_idx" ON "terminals"."share" ("terminal_id", "created" DESC, "id" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "terminals"."share"`);
    await q.query(`DROP TABLE "terminals"."terminal"`);
  }
}
