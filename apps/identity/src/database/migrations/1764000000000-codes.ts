import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Codes1764000000000 implements MigrationInterface {
  name = 'Codes1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "identity"."exchange_code" (
      "id" uuid PRIMARY KEY,
      "user_id" uuid NOT NULL REFERENCES "identity"."user" ("id") ON DELETE CASCADE,
      "kind" text NOT NULL CHECK ("kind" IN ('impersonate', 'tokenswap')),
      "code_hash" text NOT NULL UNIQUE,
      "issued_by" uuid NOT NULL REFERENCES "identity"."user" ("id") ON DELETE CASCADE,
      "expires_at" timestamptz NOT NULL,
      "used_at" timestamptz,
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
    // An impersonation session remembers the administrator, so its logout can hand the admin back a session.
    await queryRunner.query(
      `ALTER TABLE "identity"."session" ADD COLUMN "impersonator_id" uuid REFERENCES "identity"."user" ("id") ON DELETE CASCADE`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "identity"."session" DROP COLUMN "impersonator_id"`);
    await queryRunner.query(`DROP TABLE "identity"."exchange_code"`);
  }
}
