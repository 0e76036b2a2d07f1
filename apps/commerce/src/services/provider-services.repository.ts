import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { ProviderServiceEntity } from './provider-service.entity.js';

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

  async save(service: Omit<ProviderServiceEntity, 'created' | 'modified'>): Promise<ProviderServiceEntity> {
    await this.services.save(service);
    return this.services.findOneByOrFail({ id: service.id });
  }
}
