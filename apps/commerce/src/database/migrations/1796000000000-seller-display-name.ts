import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The name buyers see as the seller (`display_name`), kept on the service and set in selling setup.
 * Existing services take their own service name (trimmed, at most 80 characters), so no receipt,
 * email or page is ever built around an empty name; a service named only with spaces becomes "Shop".
 * The CHECK keeps it so. Receipts issued with no seller name (a seller without a profile name) take
 * their service's display name; a receipt that has one keeps it (receipts are records).
 */
export class SellerDisplayName1796000000000 implements MigrationInterface {
  name = 'SellerDisplayName1796000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "commerce"."service" ADD COLUMN "display_name" text NULL`);
    await q.query(`UPDATE "commerce"."service" SET "display_name" = COALESCE(NULLIF(left(btrim("name"), 80), ''), 'Shop')`);
    await q.query(`ALTER TABLE "commerce"."service" ALTER COLUMN "display_name" SET NOT NULL`);
    await q.query(`ALTER TABLE "commerce"."service" ADD CONSTRAINT "service_display_name_present" CHECK (btrim("display_name") <> '')`);
    await q.query(`UPDATE "commerce"."receipt" r SET "seller_name" = s."display_name"
      FROM "commerce"."order" o JOIN "commerce"."service" s ON s."id" = o."service_id"
      WHERE o."id" = r."order_id" AND btrim(r."seller_name") = ''`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "commerce"."service" DROP COLUMN "display_name"`);
  }
}
