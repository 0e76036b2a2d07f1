import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ShippingOption, ShippingService } from '@tinkerdesk/contracts';
import type { DataSource } from 'typeorm';

export interface ProductRow {
  id: string;
  serviceId: string;
  userId: string;
  name: string;
  description: string;
  price: number;
  currency: 'USD';
  image: string | null;
  active: boolean;
  shipping: { services: ShippingService[]; options: ShippingOption[] } | null;
  created: Date;
  modified: Date;
}

const toProduct = (r: Record<string, unknown>): ProductRow => ({
  id: r.id as string,
  serviceId: r.service_id as string,
  userId: r.user_id as string,
  name: r.name as string,
  description: r.description as string,
  price: r.price as number,
  currency: r.currency as 'USD',
  image: (r.image as string | null) ?? null,
  active: r.active as boolean,
  shipping: (r.shipping as ProductRow['shipping']) ?? null,
  created: r.created as Date,
  modified: r.modified as Date,
});

/** The only place that touches products. */
@Injectable()
export class ProductsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async listByService(serviceId: string, activeOnly: boolean): Promise<ProductRow[]> {
    const rows = (await this.db.query(
      `SELECT * FROM "commerce"."product" WHERE "service_id" = $1 AND ($2 = false OR "active") ORDER BY "created", "id"`,
      [serviceId, activeOnly],
    )) as Array<Record<string, unknown>>;
    return rows.map(toProduct);
  }

  async find(id: string): Promise<ProductRow | null> {
    const rows = (await this.db.query(`SELECT * FROM "commerce"."product" WHERE "id" = $1`, [id])) as Array<Record<string, unknown>>;
    return rows[0] ? toProduct(rows[0]) : null;
  }

  async upsert(p: Omit<ProductRow, 'created' | 'modified'>): Promise<ProductRow> {
    const rows = (await this.db.query(
      `INSERT INTO "commerce"."product" ("id", "service_id", "user_id", "name", "description", "price", "currency", "image", "active", "shipping")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb)
       ON CONFLICT ("id") DO UPDATE SET "name" = $4, "description" = $5, "price" = $6, "currency" = $7, "image" = $8, "active" = $9,
         "shipping" = $10::jsonb, "modified" = now()
       WHERE "product"."service_id" = $2 AND "product"."user_id" = $3
       RETURNING *`,
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
    )) as Array<Record<string, unknown>>;
    return toProduct(rows[0] as Record<string, unknown>);
  }

  /** Deletes the product unless an order refers to it (then false: the caller deactivates it). */
  async deleteIfUnordered(id: string): Promise<boolean> {
    const [, count] = (await this.db.query(
      `DELETE FROM "commerce"."product" p WHERE p."id" = $1 AND NOT EXISTS (SELECT 1 FROM "commerce"."order" o WHERE o."product_id" = p."id")`,
      [id],
    )) as [unknown, number];
    return count === 1;
  }
}
