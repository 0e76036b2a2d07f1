import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { IDENTITY_EVENTS_STREAM, type IdentityDomainEvent } from '@tinkerdesk/contracts';
import { NATS_RECONNECT, type Logger } from '@tinkerdesk/nest-common';
import { ServiceOutbox, type ServiceOutboxOptions, type ServiceOutboxSettings } from '@tinkerdesk/persistence';
import { accountsRetentionRules, type AccountsRetention } from '../accounts/retention.repository.js';
import { mailKeyRetentionRule } from '../mail/mail-keys.repository.js';
import { OUTBOX_DATA_SOURCE } from '../database/outbox-data-source.js';
import { IDENTITY_LOGGER } from '../logger.token.js';

export const IDENTITY_OUTBOX_SETTINGS = Symbol('IDENTITY_OUTBOX_SETTINGS');
export const IDENTITY_OUTBOX_NATS = Symbol('IDENTITY_OUTBOX_NATS');

/** With the keep periods of identity's own records (accounts, MAIL_KEY_RETENTION_DAYS). */
export type IdentityOutboxSettings = ServiceOutboxSettings & { accounts: AccountsRetention; mailKeyDays: number };

/** The relay's own NATS connection (the Nest transport's is for request/reply). */
export const identityOutboxNats = (natsUrl: string) => ({
  provide: IDENTITY_OUTBOX_NATS,
  useFactory: (): Promise<NatsConnection> => connect({ servers: natsUrl, name: `identity-outbox-${process.pid}`, ...NATS_RECONNECT }),
});

/**
 * The outbox of identity at run time: the relay only (committed events → the IDENTITY_EVENTS stream),
 * for other services' listeners: commerce hears `identity.email.verified` and gives the orders placed
 * with that address to the account; its retention sweep also deletes accounts' records that are over
 * (retention.repository.ts) and old mail keys. Its NATS connection closes once the relay has stopped.
 */
@Injectable()
export class IdentityOutbox extends ServiceOutbox<IdentityDomainEvent> implements OnApplicationShutdown {
  constructor(
    @Inject(OUTBOX_DATA_SOURCE) dataSource: ServiceOutboxOptions<IdentityDomainEvent>['dataSource'],
    @Inject(IDENTITY_OUTBOX_NATS) private readonly nc: NatsConnection,
    @Inject(IDENTITY_OUTBOX_SETTINGS) settings: IdentityOutboxSettings,
    @Inject(IDENTITY_LOGGER) logger: Logger,
  ) {
    super({
      dataSource,
      service: 'identity',
      stream: IDENTITY_EVENTS_STREAM,
      nc,
      settings,
      logger,
      listeners: [],
      retentionRules: [...accountsRetentionRules(settings.accounts), mailKeyRetentionRule(settings.mailKeyDays)],
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.nc.drain().catch(() => undefined);
  }
}
