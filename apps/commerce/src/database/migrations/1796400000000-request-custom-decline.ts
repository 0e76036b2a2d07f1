import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment requests: why the payer declined (optional, plain text). A custom amount request needs no
 * column: its `product` snapshot has a null id (product_id is already nullable).
 */
export class RequestDeclineReason1796400000000 implements MigrationInterface {
  name = 'RequestDeclineReason1796400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "commerce"."payment_request" ADD COLUMN "decline_reason" text NULL
      CONSTRAINT "payment_request_decline_reason_length" CHECK (char_length("decline_reason") <= 500)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "commerce"."payment_request" DROP COLUMN "decline_reason"`);
  }
}
