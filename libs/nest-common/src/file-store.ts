import type { NatsConnection } from '@nats-io/transport-node';
import { Objm, setSha256Backend, type ObjectStore } from '@nats-io/obj';
import type { Redis } from 'ioredis';
import { env } from './config.js';
import { ConversionFiles, inlineFilesSchema } from './conversion-files.js';

const NANOS_PER_MS = 1_000_000;

// The object store hashes every object it stores and checks it when read (SHA-256). Its default is a
// pure-JS hash, for browsers; Node's own is several times faster on files of megabytes.
setSha256Backend('native');

/** What every process that opens the conversion file store must agree on (gateway, listener, workers). */
export const fileStoreSchema = {
  /** Hours a conversion result (and its job's files) is kept. */
  CONVERSION_RESULT_TTL_HOURS: env.int(24, 1, 24 * 30),
  /** The object store's size cap in bytes (10 GiB); a full store refuses new files. */
  CONVERSION_STORE_MAX_BYTES: env.int(10 * 1024 ** 3, 1024 ** 2, 1024 ** 4),
  ...inlineFilesSchema,
};

export interface FileStoreLimits {
  CONVERSION_RESULT_TTL_HOURS: number;
  CONVERSION_STORE_MAX_BYTES: number;
}

/**
 * Files in transit between the gateway and the workers live in a JetStream object store (chunked,
 * so no NATS message carries a whole file), one bucket per deployment prefix, with a size cap and a
 * time to live an hour past the results' (the service deletes expired files itself; the TTL is the
 * backstop for anything abandoned).
 */
export async function openFileStore(nc: NatsConnection, bucket: string, prefix: string, limits: FileStoreLimits): Promise<ObjectStore> {
  const name = prefix ? `${prefix}_${bucket}` : bucket;
  const ttlMs = (limits.CONVERSION_RESULT_TTL_HOURS + 1) * 3600_000;
  return new Objm(nc).create(name, { ttl: ttlMs * NANOS_PER_MS, max_bytes: limits.CONVERSION_STORE_MAX_BYTES });
}

/** What opening the conversion files needs of a process's config. */
export interface ConversionFilesConfig extends FileStoreLimits {
  NATS_PREFIX: string;
  REDIS_PREFIX: string;
  CONVERSION_INLINE_MAX_BYTES: number;
  CONVERSION_INLINE_BUDGET_BYTES: number;
}

/** The conversion files of a deployment: small ones in Redis, the rest in the object store (ConversionFiles). */
export async function openConversionFiles(
  nc: NatsConnection,
  redis: Redis,
  bucket: string,
  config: ConversionFilesConfig,
): Promise<ConversionFiles> {
  const store = await openFileStore(nc, bucket, config.NATS_PREFIX, config);
  return new ConversionFiles(store, redis, {
    prefix: config.REDIS_PREFIX,
    maxBytes: config.CONVERSION_INLINE_MAX_BYTES,
    budgetBytes: config.CONVERSION_INLINE_BUDGET_BYTES,
    ttlMs: (config.CONVERSION_RESULT_TTL_HOURS + 1) * 3600_000,
  });
}

export { ConversionFiles };
export type { ObjectStore };
