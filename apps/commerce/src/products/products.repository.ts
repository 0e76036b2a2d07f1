import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sql } from '@tinkerdesk/persistence';
import type { DataSource, Repository } from 'typeorm';
import { ProductEntity } from './product.entity.js';

export type ProductRow = ProductEntity;

/** The only place that touches products. */
@Injectable()
export class ProductsRepository {
  private readonly products: Repository<ProductEntity>;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.products = db.getRepository(ProductEntity);
  }

  listByService(serviceId: string, activeOnly: boolean): Promise<ProductRow[]> {
    return this.products.find({
      where: activeOnly ? { serviceId, active: true } : { serviceId },
      order: { created: 'ASC', id: 'ASC' },
    });
  }

  find(id: string): Promise<ProductRow | null> {
    return this.products.findOneBy({ id });
  }

  /**
   * Inserts the product or updates it in place. An id that exists under another service or user is not
   * touched (the upsert's WHERE), which is a bug of the caller: it throws.
   */
  async upsert(p: Omit<ProductRow, 'created' | 'modified' | 'uploadedImage'>): Promise<ProductRow> {
    const { id } = await sql.one<{ id: string }>(
      this.db,
      `INSERT INTO "commerce"."product" ("id", "service_id", "user_id", "name", "description", "price", "currency", "image", "active", "shipping")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb)
       ON CONFLICT ("id") DO UPDATE SET "name" = $4, "description" = $5, "price" = $6, "currency" = $7, "image" = $8, "active" = $9,
         "shipping" = $10::jsonb, "modified" = now()
       WHERE "product"."service_id" = $2 AND "product"."user_id" = $3
       RETURNING "id"`,
      [
        p.id,
        p.serviceId,
        p.userId,
        p.name,
        p.description,
        p.price,
        p.currency,
        p.image,
        p.active,
        p.shipping === null ? null : JSON.stringify(p.shipping),
      ],
    );
    return this.products.findOneByOrFail({ id });
  }

  /** Deletes the product unless an order refers to it (then false: the caller deactivates it). */
  async deleteIfUnordered(id: string): Promise<boolean> {
    const deleted = await sql.execute(
      this.db,
      `DELETE FROM "commerce"."product" p WHERE p."id" = $1 AND NOT EXISTS (SELECT 1 FROM "commerce"."order" o WHERE o."product_id" = p."id")`,
      [id],
    );
    return deleted === 1;
  }
}
