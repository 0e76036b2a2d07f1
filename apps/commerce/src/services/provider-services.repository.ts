import type { DataSource, Repository } from 'typeorm';
import { ProviderServiceEntity } from './provider-service.entity.js';

/** The only place that touches the service table. */
export class ProviderServicesRepository {
  private readonly services: Repository<ProviderServiceEntity>;

  constructor(dataSource: DataSource) {
    this.services = dataSource.getRepository(ProviderServiceEntity);
  }

  listByUser(userId: string): Promise<ProviderServiceEntity[]> {
    return this.services.find({ where: { userId }, order: { created: 'ASC' } });
  }
}
