import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Saved files ("my files"): what each account stored through a signed upload URL. */
export class SavedFiles1764400000000 implements MigrationInterface {
  name = 'SavedFiles1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "conversion"."saved_file" (
      "id" uuid PRIMARY KEY,
      "owner_id" uuid NOT NULL,
      "filename" text NOT NULL,
      "media_type" text NOT NULL,
      "size" bigint NOT NULL CHECK ("size" > 0),
      "state" text NOT NULL CHECK ("state" IN ('pending', 'stored')),
      "pending_until" timestamptz,
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "saved_file_owner_created" ON "conversion"."saved_file" ("owner_id", "created" DESC)`);
    await queryRunner.query(
      `CREATE INDEX "saved_file_pending_until" ON "conversion"."saved_file" ("pending_until") WHERE "state" = 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "conversion"."saved_file"`);
  }
}
