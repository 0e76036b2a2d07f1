import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `pending_mail`: an email that holds a secret (a payment request's link with its key), kept out of
 * the event stream, under the id of the outbox event it goes with (written in the same transaction;
 * the mail listener sends it, then deletes it).
 */
export class PendingMail1765000000000 implements MigrationInterface {
  name = 'PendingMail1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "commerce"."pending_mail" (
      "event_id" uuid PRIMARY KEY,
      "message" jsonb NOT NULL,
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "commerce"."pending_mail"`);
  }
}
