import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { serviceDataSourceOptions, type ServiceDataSourceOptions } from './database.js';
import { ServiceInstanceEntity } from './service-instance.entity.js';

/** The TypeORM connection of one service to its own schema (synchronize always off). */
export class ServiceDatabaseModule {
  static forRoot(options: ServiceDataSourceOptions): DynamicModule {
    return TypeOrmModule.forRoot({
      ...serviceDataSourceOptions({
        ...options,
        entities: [ServiceInstanceEntity, ...(Array.isArray(options.entities) ? options.entities : [])],
      }),
      retryAttempts: 3,
      retryDelay: 1000,
    });
  }
}
