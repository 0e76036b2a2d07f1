import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppError } from '@tinkerdesk/contracts';
import {
  entityColumns,
  sql,
  storedId,
  type IdempotentCreate,
  type NamedStatement,
  type SqlRunner,
  type TransactionManager,
} from '@tinkerdesk/persistence';
import type { DataSource, Repository } from 'typeorm';
import { COMMERCE_KEYS } from '../database/idempotency-keys.js';
import { ProductEntity } from './product.entity.js';

export type ProductRow = ProductEntity;

/** The only place that touches products. */
@Injectable()
export class ProductsRepository {
  private readonly products: Repository<ProductEntity>;
  /** The product's columns named as its properties, for the reads in SQL. */
  private readonly columns: string;
  /** The hot reads, prepared on each pooled connection (parsed and planned once, not per read). */
  private readonly byService: NamedStatement;
  private readonly byId: NamedStatement;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.products = db.getRepository(ProductEntity);
    this.columns = entityColumns(db, ProductEntity);
    this.byService = {
      name: 'commerce_products_of_service',
      text: `SELECT ${this.columns} FROM "commerce"."product"
        WHERE "service_id" = $1 AND ("active" OR NOT $2::boolean)
        ORDER BY "created" ASC, "id" ASC`,
    };
    this.byId = { name: 'commerce_product_by_id', text: `SELECT ${this.columns} FROM "commerce"."product" WHERE "id" = $1` };
  }

  // The reads of storefronts and orders are in SQL: TypeORM's find() building and hydrating took more
  // CPU than the statement (bench/storefront-read.mjs).

  /** The service's products (`activeOnly`: the active ones), oldest first. */
  listByService(serviceId: string, activeOnly: boolean): Promise<ProductRow[]> {
    return sql.rows<ProductRow>(this.db, this.byService, [serviceId, activeOnly]);
  }

  async find(id: string): Promise<ProductRow | null> {
    return (await sql.maybeOne<ProductRow>(this.db, this.byId, [id])) ?? null;
  }

  /**
   * Inserts the product or updates it in place. An id that exists under another service or user is not
   * touched (the upsert's WHERE), which is a bug of the caller: it throws. A create under an
   * Idempotency-Key claims the key in the insert's transaction (IdempotencyKeys.once): the same request
   * again, or alongside, answers the first product.
   */
  async upsert(p: Omit<ProductRow, 'created' | 'modified' | 'uploadedImage'>, idempotent?: IdempotentCreate): Promise<ProductRow> {
    const id =
      idempotent === undefined
        ? await this.write(this.db, p)
        : storedId(
            (await this.db.transaction((m) => COMMERCE_KEYS.once(m, idempotent, async () => ({ id: await this.write(m, p) })))).answer,
          );
    const product = id === undefined ? null : await this.products.findOneBy({ id });
    if (!product) throw new AppError('NOT_FOUND', 'the product made under this Idempotency-Key was deleted since');
    return product;
  }

  private async write(db: SqlRunner, p: Omit<ProductRow, 'created' | 'modified' | 'uploadedImage'>): Promise<string> {
    const { id } = await sql.one<{ id: string }>(
      db,
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
    return id;
  }

  /**
   * Deletes the product unless `ordered` (the orders feature, asked in this transaction) says an order
   * refers to it (then false: the caller deactivates it). The product's row is locked first, so no
   * order can be placed for it in between (an order's foreign key waits for the lock).
   */
  async deleteIfUnordered(id: string, ordered: (manager: TransactionManager, productId: string) => Promise<boolean>): Promise<boolean> {
    return this.db.transaction(async (m) => {
      const products = m.getRepository(ProductEntity);
      const product = await products.findOne({ select: { id: true }, where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!product || (await ordered(m, id))) return false;
      await products.delete({ id });
      return true;
    });
  }
}
