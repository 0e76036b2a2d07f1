import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The seller's overview: when each seller last looked at it (orders paid later show as new), and an
 * index for its figures (a seller's paid orders by the time they were paid).
 */
export class SellerSeen1796300000000 implements MigrationInterface {
  name = 'SellerSeen1796300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "commerce"."seller_seen" (
      "seller_id" uuid PRIMARY KEY,
      "seen_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX "order_seller_paid_idx" ON "commerce"."order" ("seller_id", "paid_at") WHERE "paid_at" IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "commerce"."order_seller_paid_idx"`);
    await q.query(`DROP TABLE "commerce"."seller_seen"`);
  }
}
