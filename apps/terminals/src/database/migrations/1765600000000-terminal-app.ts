import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Terminals an app registered with a user's OAuth access token (scope terminals) belong to that
 * authorization: the grant that made them, and the app named in the list. They go when the grant ends.
 */
export class TerminalApp1765600000000 implements MigrationInterface {
  name = 'TerminalApp1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "terminals"."terminal" ADD COLUMN "grant_id" text, ADD COLUMN "app_id" uuid, ADD COLUMN "app_name" text`);
    await q.query(
      `ALTER TABLE "terminals"."terminal" ADD CONSTRAINT "terminal_app_check" CHECK (("grant_id" IS NULL) = ("app_id" IS NULL) AND ("app_id" IS NULL) = ("app_name" IS NULL))`,
    );
    await q.query(`CREATE INDEX "terminal_grant_idx" ON "terminals"."terminal" ("grant_id") WHERE "grant_id" IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "terminals"."terminal_grant_idx"`);
    await q.query(
      `ALTER TABLE "terminals"."terminal" DROP CONSTRAINT "terminal_app_check", DROP COLUMN "grant_id", DROP COLUMN "app_id", DROP COLUMN "app_name"`,
    );
  }
}
