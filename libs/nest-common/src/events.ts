import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { prefixed, type EventMap, type EventSubject } from '@tinkerdesk/contracts';

/**
 * Events over NATS, typed from EventMap in libs/contracts: published to every subscriber (no queue
 * group, no reply), so each replica of a service hears each one.
 */
export async function publishEvent<S extends EventSubject>(
  nc: NatsConnection,
  prefix: string,
  subject: S,
  payload: EventMap[S],
): Promise<void> {
  nc.publish(prefixed(prefix, subject), JSON.stringify(payload));
  // On the server before the caller goes on: whoever learns of the change next finds it delivered.
  await nc.flush();
}

export function subscribeEvent<S extends EventSubject>(
  nc: NatsConnection,
  prefix: string,
  subject: S,
  handler: (payload: EventMap[S]) => void,
): Subscription {
  return nc.subscribe(prefixed(prefix, subject), {
    callback: (error, message) => {
      if (error) return;
      try {
        handler(message.json<EventMap[S]>());
      } catch {
        // a malformed event is ignored: the cache's time to live bounds what it could have changed
      }
    },
  });
}
