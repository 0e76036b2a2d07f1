import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Product images stored by the site (issue 29): each size of a product's uploaded image (WebP, made by
 * the gateway with sharp) in `product_image`, one row per size, all rows of a product sharing the
 * version of the set; `product.uploaded_image` names that version and the sizes' dimensions for the
 * product's view. Deleting a product deletes its images.
 */
export class ProductImages1795651515777 implements MigrationInterface {
  name = 'ProductImages1795651515777';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "commerce"."product" ADD COLUMN "uploaded_image" jsonb`);
    await q.query(`CREATE TABLE "commerce"."product_image" (
      "product_id" uuid NOT NULL REFERENCES "commerce"."product" ("id") ON DELETE CASCADE,
      "size" text NOT NULL CHECK ("size" IN ('small', 'medium', 'large')),
      "version" text NOT NULL,
      "bytes" bytea NOT NULL,
      "content_type" text NOT NULL DEFAULT 'image/webp',
      "etag" text NOT NULL,
      "width" integer NOT NULL CHECK ("width" > 0),
      "height" integer NOT NULL CHECK ("height" > 0),
      "created" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("product_id", "size")
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "commerce"."product_image"`);
    await q.query(`ALTER TABLE "commerce"."product" DROP COLUMN "uploaded_image"`);
  }
}
