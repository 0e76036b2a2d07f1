import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ActionTokens1763950000000 implements MigrationInterface {
  name = 'ActionTokens1763950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "identity"."action_token" (
      "id" uuid PRIMARY KEY,
      "user_id" uuid NOT NULL REFERENCES "identity"."user" ("id") ON DELETE CASCADE,
      "purpose" text NOT NULL CHECK ("purpose" IN ('verify', 'reset')),
      "token_hash" text NOT NULL UNIQUE,
      "expires_at" timestamptz NOT NULL,
      "used_at" timestamptz,
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "action_token_user" ON "identity"."action_token" ("user_id", "purpose")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "identity"."action_token"`);
  }
}
