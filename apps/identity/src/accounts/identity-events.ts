import { connect, type NatsConnection } from '@nats-io/transport-node';
import { SUBJECTS, type EventMap, type EventSubject, type SessionRevokedEvent, type UserChangedEvent } from '@tinkerdesk/contracts';
import { NATS_RECONNECT, publishEvent, type Logger } from '@tinkerdesk/nest-common';

export const IDENTITY_EVENTS = Symbol('IDENTITY_EVENTS');

/**
 * Tells every gateway replica what it may no longer answer from memory: sessions that ended (so none
 * keeps accepting their tokens) and users whose profile changed (so `me` is read again).
 */
export interface IdentityEvents {
  revoked(event: SessionRevokedEvent): Promise<void>;
  userChanged(event: UserChangedEvent): Promise<void>;
  close(): Promise<void>;
}

/** Over its own NATS connection (the Nest transport's is for request/reply). */
export function natsIdentityEvents(natsUrl: string, prefix: string, logger: Logger): IdentityEvents {
  const nc: Promise<NatsConnection> = connect({ servers: natsUrl, name: `identity-events-${process.pid}`, ...NATS_RECONNECT });
  nc.catch((err: unknown) => logger.error({ err }, 'could not connect to NATS for identity events'));
  const publish = async <S extends EventSubject>(subject: S, event: EventMap[S]): Promise<void> => {
    try {
      await publishEvent(await nc, prefix, subject, event);
    } catch (err) {
      // The change is in the database; gateways forget what they remembered within their cache's time to live.
      logger.error({ err, subject, event }, 'could not announce an identity change');
    }
  };
  return {
    revoked: (event) => publish(SUBJECTS.identity.sessionRevoked, event),
    userChanged: (event) => publish(SUBJECTS.identity.userChanged, event),
    async close() {
      await (await nc.catch(() => undefined))?.drain();
    },
  };
}
