import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Wallet passes and their images. An image is stored once per account and content (its id is the
 * SHA-256 of the account and the PNG), before the pass that references it; images no pass references
 * are removed with the pass that dropped them, or by the sweep an hour after they were stored.
 */
export class Passes1765400000000 implements MigrationInterface {
  name = 'Passes1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "terminals"."pass_image" (
      "id" text PRIMARY KEY CHECK ("id" ~ '^[0-9a-f]{64}$'),
      "user_id" uuid NOT NULL,
      "type" text NOT NULL CHECK ("type" = 'image/png'),
      "width" integer NOT NULL CHECK ("width" > 0),
      "height" integer NOT NULL CHECK ("height" > 0),
      "size" integer NOT NULL,
      "bytes" bytea NOT NULL,
      "stored" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX "pass_image_stored_idx" ON "terminals"."pass_image" ("stored")`);
    await q.query(`CREATE TABLE "terminals"."pass" (
      "id" uuid PRIMARY KEY,
      "user_id" uuid NOT NULL,
      "card_title" text NOT NULL,
      "header" text NOT NULL,
      "subheader" text,
      "text_rows" jsonb NOT NULL DEFAULT '[]',
      "barcode" jsonb,
      "background_color" text NOT NULL CHECK ("background_color" ~ '^#[0-9a-f]{6}$'),
      "logo_id" text REFERENCES "terminals"."pass_image" ("id"),
      "hero_id" text REFERENCES "terminals"."pass_image" ("id"),
      "created" timestamptz NOT NULL DEFAULT clock_timestamp(),
      "modified" timestamptz NOT NULL DEFAULT clock_timestamp()
    )`);
    await q.query(`CREATE INDEX "pass_user_created_idx" ON "terminals"."pass" ("user_id", "created", "id")`);
    await q.query(`CREATE INDEX "pass_user_modified_idx" ON "terminals"."pass" ("user_id", "modified", "id")`);
    await q.query(`CREATE INDEX "pass_logo_idx" ON "terminals"."pass" ("logo_id") WHERE "logo_id" IS NOT NULL`);
    await q.query(`CREATE INDEX "pass_hero_idx" ON "terminals"."pass" ("hero_id") WHERE "hero_id" IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "terminals"."pass"`);
    await q.query(`DROP TABLE "terminals"."pass_image"`);
  }
}
