import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
import { Redis } from 'ioredis';
import pg from 'pg';

export interface RunResources {
  databaseUrl: string;
  natsUrl: string;
  natsPrefix: string;
  redisUrl: string;
  redisPrefix: string;
}

/**
 * Removes what one test run left behind: its database, its JetStream object store buckets and event
 * streams (a service's outbox relay publishes to `<prefix>_<SERVICE>_EVENTS`), and its
 * Redis keys, so repeated runs do not pile up state on a developer's machine or CI.
 */
export async function cleanupRun(run: RunResources): Promise<void> {
  const dbUrl = new URL(run.databaseUrl);
  const name = decodeURIComponent(dbUrl.pathname.slice(1));
  dbUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: dbUrl.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '')}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }

  if (run.natsPrefix) {
    const nc = await connect({ servers: run.natsUrl });
    try {
      const objm = new Objm(nc);
      for await (const status of objm.list()) {
        if (status.bucket.startsWith(`${run.natsPrefix}_`)) await (await objm.open(status.bucket)).destroy();
      }
      const jsm = await jetstreamManager(nc);
      for await (const stream of jsm.streams.list()) {
        if (stream.config.name.startsWith(`${run.natsPrefix}_`)) await jsm.streams.delete(stream.config.name);
      }
    } finally {
      await nc.close();
    }
  }

  if (run.redisPrefix) await removeRedisKeys(run.redisUrl, run.redisPrefix);
}

/** Removes every Redis key under a prefix (`<prefix>:…`). */
export async function removeRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
