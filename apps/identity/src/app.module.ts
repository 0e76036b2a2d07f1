import { Module, type DynamicModule } from '@nestjs/common';
import { PLATFORM_VERSION } from '@tinkerdesk/contracts';
import { ServiceDatabaseModule, ServiceHealthModule } from '@tinkerdesk/persistence';
import { AccountsController } from './accounts/accounts.controller.js';
import { AccountsService } from './accounts/accounts.service.js';
import { ContactController } from './contact/contact.controller.js';
import { dataSourceOptions } from './database/data-source.js';

@Module({})
export class AppModule {
  static register(config: { DATABASE_URL: string }): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceDatabaseModule.forRoot(dataSourceOptions(config.DATABASE_URL)),
        ServiceHealthModule.forService({ service: 'identity', version: PLATFORM_VERSION }),
      ],
      controllers: [AccountsController, ContactController],
      providers: [AccountsService],
    };
  }
}
