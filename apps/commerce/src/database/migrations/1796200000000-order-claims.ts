import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Guest orders belong to the account that verifies their address: `claimed_by` is that account
 * (set at order time when the address is verified already, or when identity announces
 * `identity.email.verified`). Indexed for the buyer's "My orders" and for the claim itself (the
 * unclaimed guest orders of one address).
 */
export class OrderClaims1796200000000 implements MigrationInterface {
  name = 'OrderClaims1796200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "commerce"."order" ADD COLUMN "claimed_by" uuid NULL`);
    await q.query(`CREATE INDEX "order_claimed_by" ON "commerce"."order" ("claimed_by", "created" DESC) WHERE "claimed_by" IS NOT NULL`);
    await q.query(`CREATE INDEX "order_unclaimed_email" ON "commerce"."order" ("email") WHERE "buyer_id" IS NULL AND "claimed_by" IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "commerce"."order_unclaimed_email"`);
    await q.query(`DROP INDEX "commerce"."order_claimed_by"`);
    await q.query(`ALTER TABLE "commerce"."order" DROP COLUMN "claimed_by"`);
  }
}
