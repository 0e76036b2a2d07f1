import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Accounts1763900000000 implements MigrationInterface {
  name = 'Accounts1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "identity"."user" (
      "id" uuid PRIMARY KEY,
      "email" text NOT NULL,
      "password_hash" text,
      "provider" text NOT NULL DEFAULT 'internal',
      "name" text NOT NULL DEFAULT '',
      "tz" text NOT NULL DEFAULT 'UTC',
      "active" boolean NOT NULL DEFAULT true,
      "verified" boolean NOT NULL DEFAULT false,
      "role" text NOT NULL DEFAULT 'user' CHECK ("role" IN ('user', 'admin')),
      "context" jsonb NOT NULL DEFAULT '{}'::jsonb,
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now()
    )`);
    // Emails are unique whatever their letter case, enforced by the database (concurrent sign-ups).
    await queryRunner.query(`CREATE UNIQUE INDEX "user_email_lower" ON "identity"."user" (lower("email"))`);
    await queryRunner.query(`CREATE TABLE "identity"."session" (
      "id" uuid PRIMARY KEY,
      "user_id" uuid NOT NULL REFERENCES "identity"."user" ("id") ON DELETE CASCADE,
      "token_hash" text NOT NULL UNIQUE,
      "expires_at" timestamptz NOT NULL,
      "ended_at" timestamptz,
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "session_user" ON "identity"."session" ("user_id")`);
    await queryRunner.query(`CREATE TABLE "identity"."contact_message" (
      "id" uuid PRIMARY KEY,
      "name" text NOT NULL,
      "email" text NOT NULL,
      "question" text NOT NULL,
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "identity"."contact_message"`);
    await queryRunner.query(`DROP TABLE "identity"."session"`);
    await queryRunner.query(`DROP TABLE "identity"."user"`);
  }
}
