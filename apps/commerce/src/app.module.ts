import { Module, type DynamicModule } from '@nestjs/common';
import { PLATFORM_VERSION } from '@tinkerdesk/contracts';
import { ServiceDatabaseModule, ServiceHealthModule } from '@tinkerdesk/persistence';
import { dataSourceOptions } from './database/data-source.js';
import { ProviderServicesModule } from './services/provider-services.module.js';

@Module({})
export class AppModule {
  static register(config: { DATABASE_URL: string }): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceDatabaseModule.forRoot(dataSourceOptions(config.DATABASE_URL)),
        ServiceHealthModule.forService({ service: 'commerce', version: PLATFORM_VERSION }),
        ProviderServicesModule,
      ],
    };
  }
}
