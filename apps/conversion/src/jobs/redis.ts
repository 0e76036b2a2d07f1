import { Redis } from 'ioredis';

/** A Redis connection for BullMQ (which requires maxRetriesPerRequest: null on workers). */
export function createRedis(url: string, name: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, connectionName: name, lazyConnect: false });
}
