import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Saved files: an upload URL works once, for its own declared file (a one-time token on the row), the
 * confirmed bytes live under a key no upload URL writes to (`object_key`), object keys that must go are
 * kept until they are gone (`saved_file_purge`), and declarations the gateway gave up waiting for are
 * remembered so a late one is not recorded (`saved_file_abandoned`).
 */
export class SavedFileUploads1764800000000 implements MigrationInterface {
  name = 'SavedFileUploads1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversion"."saved_file"
      ADD COLUMN "upload_nonce" text,
      ADD COLUMN "upload_put" uuid,
      ADD COLUMN "upload_expires" timestamptz,
      ADD COLUMN "object_key" text`);
    // Files saved before versions keep their bytes where they are.
    await queryRunner.query(`UPDATE "conversion"."saved_file" SET "object_key" = "owner_id" || '/' || "id" WHERE "state" = 'stored'`);
    await queryRunner.query(
      `ALTER TABLE "conversion"."saved_file" ADD CONSTRAINT "saved_file_stored_has_object" CHECK ("state" <> 'stored' OR "object_key" IS NOT NULL)`,
    );
    await queryRunner.query(`CREATE TABLE "conversion"."saved_file_purge" (
      "key" text PRIMARY KEY,
      "not_before" timestamptz NOT NULL
    )`);
    await queryRunner.query(`CREATE INDEX "saved_file_purge_due" ON "conversion"."saved_file_purge" ("not_before")`);
    // What the pending files of before may have uploaded goes when they would have been dropped.
    await queryRunner.query(`INSERT INTO "conversion"."saved_file_purge" ("key", "not_before")
      SELECT "owner_id" || '/' || "id", COALESCE("pending_until", now()) FROM "conversion"."saved_file" WHERE "state" = 'pending'`);
    await queryRunner.query(`CREATE TABLE "conversion"."saved_file_abandoned" (
      "id" uuid PRIMARY KEY,
      "owner_id" uuid NOT NULL,
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "conversion"."saved_file_abandoned"`);
    await queryRunner.query(`DROP TABLE "conversion"."saved_file_purge"`);
    await queryRunner.query(`ALTER TABLE "conversion"."saved_file" DROP CONSTRAINT "saved_file_stored_has_object"`);
    await queryRunner.query(`ALTER TABLE "conversion"."saved_file"
      DROP COLUMN "upload_nonce", DROP COLUMN "upload_put", DROP COLUMN "upload_expires", DROP COLUMN "object_key"`);
  }
}
