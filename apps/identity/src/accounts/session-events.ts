import { connect, type NatsConnection } from '@nats-io/transport-node';
import { SUBJECTS, type SessionRevokedEvent } from '@tinkerdesk/contracts';
import { publishEvent, type Logger } from '@tinkerdesk/nest-common';

export const SESSION_EVENTS = Symbol('SESSION_EVENTS');

/** Tells every gateway replica which sessions ended, so none keeps accepting their tokens. */
export interface SessionEvents {
  revoked(event: SessionRevokedEvent): Promise<void>;
  close(): Promise<void>;
}

/** Over its own NATS connection (the Nest transport's is for request/reply). */
export function natsSessionEvents(natsUrl: string, prefix: string, logger: Logger): SessionEvents {
  const nc: Promise<NatsConnection> = connect({ servers: natsUrl, name: `identity-events-${process.pid}`, maxReconnectAttempts: -1 });
  nc.catch((err: unknown) => logger.error({ err }, 'could not connect to NATS for session events'));
  return {
    async revoked(event) {
      try {
        await publishEvent(await nc, prefix, SUBJECTS.identity.sessionRevoked, event);
      } catch (err) {
        // The session is ended in the database; gateways forget their cached check within SESSION_CACHE_TTL_MS.
        logger.error({ err, event }, 'could not announce ended sessions');
      }
    },
    async close() {
      await (await nc.catch(() => undefined))?.drain();
    },
  };
}
