import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Provider services (docs/api.md, "Selling": name, provider, vendor, account, plus provider-specific extras). */
export class ProviderServices1764200000000 implements MigrationInterface {
  name = 'ProviderServices1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "commerce"."service" (
      "id" uuid PRIMARY KEY,
      "user_id" uuid NOT NULL,
      "name" text NOT NULL,
      "provider" text NOT NULL,
      "vendor" text NOT NULL,
      "account" text NOT NULL,
      "extras" jsonb NOT NULL DEFAULT '{}',
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "service_user_idx" ON "commerce"."service" ("user_id", "created")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "commerce"."service"`);
  }
}
