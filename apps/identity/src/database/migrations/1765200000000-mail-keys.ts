import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency keys of mail other services send through identity (mail/mail-keys.repository.ts). */
export class MailKeys1765200000000 implements MigrationInterface {
  name = 'MailKeys1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "identity"."mail_key" (
      "key" text PRIMARY KEY,
      "queued_at" timestamptz,
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "mail_key_created" ON "identity"."mail_key" ("created")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "identity"."mail_key"`);
  }
}
