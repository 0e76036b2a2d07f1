import type { NatsConnection } from '@nats-io/transport-node';
import { Objm, type ObjectStore } from '@nats-io/obj';

const NANOS_PER_MS = 1_000_000;

/**
 * Files in transit between the gateway and the workers live in a JetStream object store (chunked,
 * so no NATS message carries a whole file), one bucket per deployment prefix, with a time to live
 * so abandoned files go away by themselves.
 */
export async function openFileStore(nc: NatsConnection, bucket: string, prefix: string, ttlMs = 24 * 3600_000): Promise<ObjectStore> {
  const name = prefix ? `${prefix}_${bucket}` : bucket;
  return new Objm(nc).create(name, { ttl: ttlMs * NANOS_PER_MS });
}

export type { ObjectStore };
