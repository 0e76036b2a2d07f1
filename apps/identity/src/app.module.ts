import { Module, type DynamicModule } from '@nestjs/common';
import { PLATFORM_VERSION } from '@tinkerdesk/contracts';
import type { ConfigOf, Logger } from '@tinkerdesk/nest-common';
import { ServiceDatabaseModule, ServiceHealthModule } from '@tinkerdesk/persistence';
import { AccountsController } from './accounts/accounts.controller.js';
import { AccountsService, MAILER, PUBLIC_URL } from './accounts/accounts.service.js';
import { oidcProviders, type schema } from './config.js';
import { ContactController, SUPPORT_ADDRESS } from './contact/contact.controller.js';
import { IDENTITY_LOGGER } from './logger.token.js';
import { dataSourceOptions } from './database/data-source.js';
import { Mailer } from './mail/mailer.js';
import { SocialController } from './social/social.controller.js';
import { OIDC_PROVIDER_CONFIGS, OIDC_TIMEOUT_MS, SocialService } from './social/social.service.js';

@Module({})
export class AppModule {
  static register(config: ConfigOf<typeof schema>, logger: Logger): DynamicModule {
    const mailer = new Mailer(
      { ...(config.SMTP_URL ? { smtpUrl: config.SMTP_URL } : {}), from: config.MAIL_FROM, dataDir: config.DATA_DIR },
      logger,
    );
    return {
      module: AppModule,
      imports: [
        ServiceDatabaseModule.forRoot(dataSourceOptions(config.DATABASE_URL)),
        ServiceHealthModule.forService({ service: 'identity', version: PLATFORM_VERSION }),
      ],
      controllers: [AccountsController, ContactController, SocialController],
      providers: [
        AccountsService,
        SocialService,
        { provide: OIDC_PROVIDER_CONFIGS, useValue: oidcProviders(config) },
        { provide: OIDC_TIMEOUT_MS, useValue: config.OIDC_TIMEOUT_MS },
        { provide: MAILER, useValue: mailer },
        { provide: PUBLIC_URL, useValue: config.PUBLIC_URL },
        { provide: SUPPORT_ADDRESS, useValue: config.SUPPORT_EMAIL },
        { provide: IDENTITY_LOGGER, useValue: logger },
      ],
    };
  }
}
