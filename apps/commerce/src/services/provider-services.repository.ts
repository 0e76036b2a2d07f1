import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppError } from '@tinkerdesk/contracts';
import { isUniqueViolation } from '@tinkerdesk/persistence';
import { DataSource, type Repository } from 'typeorm';
import { ProviderServiceEntity } from './provider-service.entity.js';

/** The unique index on lower(slug) (migration ShopSlug). */
export const SLUG_INDEX = 'service_slug_key';

/** The only place that touches the service table. */
@Injectable()
export class ProviderServicesRepository {
  private readonly services: Repository<ProviderServiceEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.services = dataSource.getRepository(ProviderServiceEntity);
  }

  listByUser(userId: string): Promise<ProviderServiceEntity[]> {
    return this.services.find({ where: { userId }, order: { created: 'ASC' } });
  }

  find(id: string): Promise<ProviderServiceEntity | null> {
    return this.services.findOne({ where: { id } });
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
      if (isUniqueViolation(error, SLUG_INDEX)) throw new AppError('CONFLICT', 'that shop link is taken');
      throw error;
    }
    return this.services.findOneByOrFail({ id: service.id });
  }
}
