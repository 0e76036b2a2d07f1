import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ProductImageSize } from '@tinkerdesk/contracts';
import { sql, type SqlRunner } from '@tinkerdesk/persistence';
import type { DataSource, Repository } from 'typeorm';
import { ProductImageEntity, type UploadedImageSet } from './product-image.entity.js';
import { ProductEntity } from './product.entity.js';

export type ProductImageRow = Omit<ProductImageEntity, 'created'>;

/** The only place that touches product images (and the product's `uploaded_image` that names them). */
@Injectable()
export class ProductImagesRepository {
  private readonly images: Repository<ProductImageEntity>;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.images = db.getRepository(ProductImageEntity);
  }

  /**
   * Replaces the product's image set by `rows` in one transaction, under the product row's lock (so
   * parallel uploads end with one whole set, the last one's), and drops an https URL the product had.
   * Undefined when the product is not `ownerId`'s.
   */
  replace(productId: string, ownerId: string, set: UploadedImageSet, rows: ProductImageRow[]): Promise<ProductEntity | undefined> {
    return this.db.transaction(async (tx) => {
      if (!(await this.lockOwned(tx, productId, ownerId))) return undefined;
      await sql.execute(tx, `DELETE FROM "commerce"."product_image" WHERE "product_id" = $1`, [productId]);
      await tx.getRepository(ProductImageEntity).insert(rows);
      await sql.execute(
        tx,
        `UPDATE "commerce"."product" SET "uploaded_image" = $2::jsonb, "image" = NULL, "modified" = now() WHERE "id" = $1`,
        [productId, JSON.stringify(set)],
      );
      return tx.getRepository(ProductEntity).findOneByOrFail({ id: productId });
    });
  }

  /** Removes the product's uploaded image (every size); undefined when the product is not `ownerId`'s. */
  clear(productId: string, ownerId: string): Promise<ProductEntity | undefined> {
    return this.db.transaction(async (tx) => {
      if (!(await this.lockOwned(tx, productId, ownerId))) return undefined;
      await sql.execute(tx, `DELETE FROM "commerce"."product_image" WHERE "product_id" = $1`, [productId]);
      await sql.execute(tx, `UPDATE "commerce"."product" SET "uploaded_image" = NULL, "modified" = now() WHERE "id" = $1`, [productId]);
      return tx.getRepository(ProductEntity).findOneByOrFail({ id: productId });
    });
  }

  /** One size of the product's image: of `version` when given, else the current one. */
  find(productId: string, size: ProductImageSize, version?: string): Promise<ProductImageRow | null> {
    return this.images.findOneBy(version ? { productId, size, version } : { productId, size });
  }

  private async lockOwned(tx: SqlRunner, productId: string, ownerId: string): Promise<boolean> {
    const row = await sql.maybeOne<{ id: string }>(
      tx,
      `SELECT "id" FROM "commerce"."product" WHERE "id" = $1 AND "user_id" = $2 FOR UPDATE`,
      [productId, ownerId],
    );
    return row !== undefined;
  }
}
