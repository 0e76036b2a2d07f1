import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppError } from '@tinkerdesk/contracts';
import { entityColumns, isUniqueViolation, sql, storedId, type IdempotentCreate, type NamedStatement } from '@tinkerdesk/persistence';
import { DataSource, type Repository } from 'typeorm';
import { COMMERCE_KEYS } from '../database/idempotency-keys.js';
import { ProviderServiceEntity } from './provider-service.entity.js';

/** The unique index on lower(slug) (migration ShopSlug). */
export const SLUG_INDEX = 'service_slug_key';

/** The only place that touches the service table. */
@Injectable()
export class ProviderServicesRepository {
  private readonly services: Repository<ProviderServiceEntity>;
  /** The service's columns named as its properties, for the read in SQL. */
  private readonly columns: string;
  /** The service by id, prepared on each pooled connection: every storefront, product and order read asks it. */
  private readonly byId: NamedStatement;
  /** The services of several ids, prepared likewise: every order list asks it (its planning cost as much as its run). */
  private readonly byIds: NamedStatement;
  /** A service's owner and vendor, prepared likewise: a products read needs no more of it. */
  private readonly ownerById: NamedStatement;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.services = dataSource.getRepository(ProviderServiceEntity);
    this.columns = entityColumns(dataSource, ProviderServiceEntity);
    this.byId = { name: 'commerce_service_by_id', text: `SELECT ${this.columns} FROM "commerce"."service" WHERE "id" = $1` };
    this.byIds = {
      name: 'commerce_services_by_ids',
      text: `SELECT ${this.columns} FROM "commerce"."service" WHERE "id" = ANY($1::uuid[])`,
    };
    this.ownerById = {
      name: 'commerce_service_owner',
      text: 'SELECT "user_id" AS "userId", "vendor" FROM "commerce"."service" WHERE "id" = $1',
    };
  }

  listByUser(userId: string): Promise<ProviderServiceEntity[]> {
    return this.services.find({ where: { userId }, order: { created: 'ASC' } });
  }

  /** In SQL: every read of a product, a storefront or an order asks for its service (TypeORM's findOne cost more than the statement). */
  async find(id: string): Promise<ProviderServiceEntity | null> {
    return (await sql.maybeOne<ProviderServiceEntity>(this.dataSource, this.byId, [id])) ?? null;
  }

  /** Who owns a service and what it sells, null for an unknown id: the products read's check (two columns, not the row). */
  async owner(id: string): Promise<Pick<ProviderServiceEntity, 'userId' | 'vendor'> | null> {
    return (await sql.maybeOne<Pick<ProviderServiceEntity, 'userId' | 'vendor'>>(this.dataSource, this.ownerById, [id])) ?? null;
  }

  /**
   * The services of these ids (any order; unknown ids are left out), in one prepared statement; one id
   * (a page of one shop's orders, the usual case) by the service-by-id statement.
   */
  async findMany(ids: readonly string[]): Promise<ProviderServiceEntity[]> {
    const distinct = [...new Set(ids)];
    if (distinct.length === 0) return [];
    if (distinct.length === 1) {
      const one = await sql.maybeOne<ProviderServiceEntity>(this.dataSource, this.byId, distinct);
      return one ? [one] : [];
    }
    return sql.rows<ProviderServiceEntity>(this.dataSource, this.byIds, [distinct]);
  }

  /** The service a shop link names (slugs are stored lowercase; the unique index is on lower(slug)). */
  findBySlug(slug: string): Promise<ProviderServiceEntity | null> {
    return this.services.createQueryBuilder('service').where('lower(service.slug) = :slug', { slug: slug.toLowerCase() }).getOne();
  }

  /** Creates or updates a service; a slug another service holds answers CONFLICT (the unique index decides races). */
  async save(service: Omit<ProviderServiceEntity, 'created' | 'modified'>): Promise<ProviderServiceEntity> {
    try {
      await this.services.save(service);
    } catch (error) {
      throw slugTaken(error);
    }
    return this.services.findOneByOrFail({ id: service.id });
  }

  /**
   * `save`, and a create under an Idempotency-Key once (IdempotencyKeys.once: the key claimed in the insert's
   * transaction); the same request again, or alongside, answers the first service.
   */
  async saveOnce(
    service: Omit<ProviderServiceEntity, 'created' | 'modified'>,
    idempotent: IdempotentCreate | undefined,
  ): Promise<ProviderServiceEntity> {
    if (idempotent === undefined) return this.save(service);
    let made: { id: string };
    try {
      ({ answer: made } = await this.dataSource.transaction((m) =>
        COMMERCE_KEYS.once(m, idempotent, async () => {
          await m.getRepository(ProviderServiceEntity).save(service);
          return { id: service.id };
        }),
      ));
    } catch (error) {
      throw slugTaken(error);
    }
    const found = await this.find(made.id);
    if (!found) throw new AppError('NOT_FOUND', 'the service made under this Idempotency-Key was deleted since');
    return found;
  }

  /** The id of the service stored under a create's key when the same request came before (IdempotencyKeys.replay). */
  async replayed(idempotent: IdempotentCreate | undefined): Promise<string | undefined> {
    return storedId(await COMMERCE_KEYS.replay(this.dataSource, idempotent));
  }
}

/** A unique violation of the slug index as the CONFLICT it means; any other error as it is. */
function slugTaken(error: unknown): unknown {
  return isUniqueViolation(error, SLUG_INDEX) ? new AppError('CONFLICT', 'that shop link is taken') : error;
}
