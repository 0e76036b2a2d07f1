import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Browsers that signed in to an account before (OWASP's device cookies): the cookie's token is kept
 * only as its SHA-256. Such a browser keeps a sign-in budget of its own during an attack on the account.
 */
export class KnownDevices1765100000000 implements MigrationInterface {
  name = 'KnownDevices1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "identity"."known_device" (
      "id" uuid PRIMARY KEY,
      "user_id" uuid NOT NULL REFERENCES "identity"."user" ("id") ON DELETE CASCADE,
      "token_hash" text NOT NULL UNIQUE,
      "expires_at" timestamptz NOT NULL,
      "last_used" timestamptz NOT NULL DEFAULT now(),
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "known_device_user" ON "identity"."known_device" ("user_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "identity"."known_device"`);
  }
}
