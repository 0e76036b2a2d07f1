import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_VERSION } from '@tinkerdesk/contracts';
import { createRedis, pingRedis, queueRoot, type ConfigOf, type Logger } from '@tinkerdesk/nest-common';
import { IdempotencyModule, ServiceDatabaseModule, ServiceHealthModule } from '@tinkerdesk/persistence';
import type { Redis } from 'ioredis';
import { AccountsModule } from './accounts/accounts.module.js';
import { AccountsService } from './accounts/accounts.service.js';
import { SignInLimiter } from './accounts/sign-in-limiter.js';
import { oidcProviders, type schema } from './config.js';
import { ContactModule } from './contact/contact.module.js';
import { ContactService } from './contact/contact.service.js';
import { IDENTITY_KEYS } from './database/idempotency-keys.js';
import { IDENTITY_LOGGER } from './logger.token.js';
import { dataSourceOptions } from './database/data-source.js';
import { mailComposer } from './mail/mail-composer.js';
import { MAIL_COMPOSER, MAIL_SENDER, MailCleanProcessor, MailProcessor, MailQueueModule } from './mail/mail-queue.js';
import { Mailer } from './mail/mailer.js';
import { SocialModule } from './social/social.module.js';
import { OAuthController } from './oauth/oauth.controller.js';
import { OAuthRepository } from './oauth/oauth.repository.js';
import { OAuthService } from './oauth/oauth.service.js';
import { IDENTITY_EVENTS, natsIdentityEvents, type IdentityEvents } from './accounts/identity-events.js';
import { outboxDataSource } from './database/outbox-data-source.js';
import { IDENTITY_OUTBOX_SETTINGS, IdentityOutbox, identityOutboxNats } from './events/identity-outbox.js';

const LIMITS_REDIS = Symbol('LIMITS_REDIS');

@Module({})
export class AppModule implements OnApplicationShutdown {
  constructor(
    @Inject(LIMITS_REDIS) private readonly limitsRedis: Redis,
    @Inject(IDENTITY_EVENTS) private readonly identityEvents: IdentityEvents,
  ) {}

  static register(config: ConfigOf<typeof schema>, logger: Logger): DynamicModule {
    const mailer = new Mailer(
      { ...(config.SMTP_URL ? { smtpUrl: config.SMTP_URL } : {}), from: config.MAIL_FROM, dataDir: config.DATA_DIR },
      logger,
    );
    const limitsRedis = createRedis(config.REDIS_URL, 'identity-limits');
    limitsRedis.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis connection error'));
    const mail = MailQueueModule.register(
      { retryDelayMs: config.MAIL_RETRY_DELAY_MS, keyRetentionDays: config.MAIL_KEY_RETENTION_DAYS },
      logger,
    );
    const events = natsIdentityEvents(config.NATS_URL, config.NATS_PREFIX, logger);
    const accounts = AccountsModule.register({
      mail,
      limiter: SignInLimiter.inRedis(limitsRedis, config.REDIS_PREFIX, config.SIGN_IN_ADDRESS_ACCOUNTS),
      events,
      publicUrl: config.PUBLIC_URL,
      logger,
    });
    return {
      module: AppModule,
      imports: [
        ServiceDatabaseModule.forRoot(dataSourceOptions(config.DATABASE_URL)),
        queueRoot({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX, name: 'identity-queues' }),
        ServiceHealthModule.forService({ service: 'identity', version: PLATFORM_VERSION }, { redis: () => pingRedis(limitsRedis) }),
        IdempotencyModule.forService(IDENTITY_KEYS, logger),
        // The mail queue's clean runs through its producer (MailCleanProcessor).
        mail,
        accounts,
        ContactModule.register({ mail, supportAddress: config.SUPPORT_EMAIL, logger }),
        SocialModule.register({
          accounts,
          providers: oidcProviders(config),
          timeoutMs: config.OIDC_TIMEOUT_MS,
          publicUrl: config.PUBLIC_URL,
        }),
      ],
      controllers: [OAuthController],
      // The mail worker composes with the rules of accounts and contact (exported by their modules).
      providers: [
        MailProcessor,
        MailCleanProcessor,
        OAuthRepository,
        OAuthService,
        { provide: LIMITS_REDIS, useValue: limitsRedis },
        { provide: MAIL_SENDER, useValue: mailer },
        { provide: MAIL_COMPOSER, useFactory: mailComposer, inject: [AccountsService, ContactService] },
        { provide: IDENTITY_LOGGER, useValue: logger },
        { provide: IDENTITY_EVENTS, useValue: events },
        // The outbox's relay: events recorded by accounts (an address verified), published after commit.
        outboxDataSource,
        identityOutboxNats(config.NATS_URL),
        {
          provide: IDENTITY_OUTBOX_SETTINGS,
          useValue: {
            prefix: config.NATS_PREFIX,
            pollMs: config.OUTBOX_POLL_MS,
            retentionDays: config.OUTBOX_RETENTION_DAYS,
            retentionSweepSeconds: config.RETENTION_SWEEP_SECONDS,
            accounts: { sessionDays: config.SESSION_RETENTION_DAYS, actionTokenDays: config.ACTION_TOKEN_RETENTION_DAYS },
            mailKeyDays: config.MAIL_KEY_RETENTION_DAYS,
          },
        },
        IdentityOutbox,
      ],
    };
  }

  /** After the mail worker has stopped (MailProcessor.onModuleDestroy); the mail queue closes itself. */
  async onApplicationShutdown(): Promise<void> {
    this.limitsRedis.disconnect();
    await this.identityEvents.close();
  }
}
