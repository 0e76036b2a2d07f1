import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shop links (`/s/{slug}`): a seller-chosen slug per service, unique across sellers whatever the case
 * (the index is what decides two sellers claiming one slug at once), and always stored lowercase.
 */
export class ShopSlug1795654917076 implements MigrationInterface {
  name = 'ShopSlug1795654917076';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "commerce"."service" ADD COLUMN "slug" text NULL
      CONSTRAINT "service_slug_lowercase" CHECK ("slug" = lower("slug"))`);
    await q.query(`CREATE UNIQUE INDEX "service_slug_key" ON "commerce"."service" (lower("slug"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "commerce"."service_slug_key"`);
    await q.query(`ALTER TABLE "commerce"."service" DROP COLUMN "slug"`);
  }
}
