import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Jobs belong to an account, have a source (an upload or a URL) and a source format, options, and an
 * expiry. Jobs from before this (anonymous uploads, results kept 24 h at most) are dropped: they have
 * no owner who could still see them.
 */
export class OwnedJobs1764300000000 implements MigrationInterface {
  name = 'OwnedJobs1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "conversion"."job"`);
    await queryRunner.query(`ALTER TABLE "conversion"."job" DROP CONSTRAINT IF EXISTS "job_state_check"`);
    await queryRunner.query(`ALTER TABLE "conversion"."job"
      DROP COLUMN "width",
      DROP COLUMN "height",
      DROP COLUMN "output_width",
      DROP COLUMN "output_height",
      ADD COLUMN "owner_id" uuid NOT NULL,
      ADD COLUMN "source_format" text NOT NULL,
      ADD COLUMN "source_kind" text NOT NULL CHECK ("source_kind" IN ('upload', 'url')),
      ADD COLUMN "source_url" text,
      ADD COLUMN "options" jsonb NOT NULL DEFAULT '{}',
      ADD COLUMN "expires" timestamptz NOT NULL,
      ADD CONSTRAINT "job_state_check" CHECK ("state" IN ('queued', 'active', 'completed', 'failed', 'cancelled', 'expired'))`);
    await queryRunner.query(`CREATE INDEX "job_owner_created" ON "conversion"."job" ("owner_id", "created" DESC)`);
    await queryRunner.query(`CREATE INDEX "job_expires" ON "conversion"."job" ("expires") WHERE "state" <> 'expired'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "conversion"."job"`);
    await queryRunner.query(`DROP INDEX "conversion"."job_expires"`);
    await queryRunner.query(`DROP INDEX "conversion"."job_owner_created"`);
    await queryRunner.query(`ALTER TABLE "conversion"."job" DROP CONSTRAINT "job_state_check"`);
    await queryRunner.query(`ALTER TABLE "conversion"."job"
      DROP COLUMN "owner_id", DROP COLUMN "source_format", DROP COLUMN "source_kind", DROP COLUMN "source_url",
      DROP COLUMN "options", DROP COLUMN "expires",
      ADD COLUMN "width" integer, ADD COLUMN "height" integer, ADD COLUMN "output_width" integer, ADD COLUMN "output_height" integer,
      ADD CONSTRAINT "job_state_check" CHECK ("state" IN ('queued', 'active', 'completed', 'failed'))`);
  }
}
