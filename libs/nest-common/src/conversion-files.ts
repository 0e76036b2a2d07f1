import { Readable } from 'node:stream';
import type { Redis } from 'ioredis';
import type { ObjectStore } from '@nats-io/obj';
import { env } from './config.js';

/** Where small conversion files go instead of the object store (every process that opens the files must agree). */
export const inlineFilesSchema = {
  /** Files up to this size (inputs and results, in bytes; 4 MiB) are kept in Redis instead of the object store; 0: never. */
  CONVERSION_INLINE_MAX_BYTES: env.int(4 * 1024 ** 2, 0, 64 * 1024 ** 2),
  /** Bytes all inline files may take in Redis together (256 MiB); past it, small files go to the object store too. */
  CONVERSION_INLINE_BUDGET_BYTES: env.int(256 * 1024 ** 2, 0, 64 * 1024 ** 3),
};

export interface InlineFilesSettings {
  /** The deployment's REDIS_PREFIX. */
  prefix: string;
  maxBytes: number;
  budgetBytes: number;
  /** How long an inline file is kept at most (the object store's time to live: the job's sweep deletes it before). */
  ttlMs: number;
  /** Files up to this size are reserved and written in one script (one round trip); larger ones in two (ONE_WRITE_MAX_BYTES by default). */
  oneWriteMaxBytes?: number;
}

/**
 * Up to this size (256 KiB) a file's reservation and its data go to Redis in one script: one round
 * trip instead of two on every small job's upload and result, while the copies a script makes of its
 * arguments stay small (a 2 MB file still goes as the reservation, then a plain SET).
 */
export const ONE_WRITE_MAX_BYTES = 256 * 1024;

/**
 * Reserves a file's bytes if the budget has room, in the ledger of every inline file (its size, and
 * when its key lapses), whose entries that lapsed give their bytes back first; 1 when reserved. A
 * large file's data follows in a plain SET (through a script, Redis would copy megabytes twice more);
 * a small one's goes in the same script (RESERVE_AND_WRITE).
 * KEYS: data, ledger (sorted set by lapse time), sizes (hash), total. ARGV: size, ttl in ms, budget.
 */
const RESERVING = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', nowMs, 'LIMIT', 0, 100)
for _, key in ipairs(lapsed) do
  local size = redis.call('HGET', KEYS[3], key)
  if size then redis.call('DECRBY', KEYS[4], size) end
  redis.call('HDEL', KEYS[3], key)
  redis.call('ZREM', KEYS[2], key)
end
local previous = tonumber(redis.call('HGET', KEYS[3], KEYS[1]) or '0')
local size = tonumber(ARGV[1])
local total = tonumber(redis.call('GET', KEYS[4]) or '0')
if total - previous + size > tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[2], nowMs + tonumber(ARGV[2]), KEYS[1])
redis.call('HSET', KEYS[3], KEYS[1], size)
redis.call('INCRBY', KEYS[4], size - previous)
`;
const RESERVE = `${RESERVING}return 1
`;

/** RESERVE, and when reserved the data itself in the same script: KEYS as for RESERVE, ARGV as well and the data. */
const RESERVE_AND_WRITE = `${RESERVING}redis.call('SET', KEYS[1], ARGV[4], 'PX', ARGV[2])
return 1
`;

/** Removes a file and gives its bytes back; 1 when it was there. KEYS as for RESERVE. */
const DELETE = `
local size = redis.call('HGET', KEYS[3], KEYS[1])
if size then redis.call('DECRBY', KEYS[4], size) end
redis.call('HDEL', KEYS[3], KEYS[1])
redis.call('ZREM', KEYS[2], KEYS[1])
return redis.call('DEL', KEYS[1])
`;

/**
 * The files of conversion jobs (an upload's input, a worker's result), in two tiers:
 *
 * - small ones (up to `CONVERSION_INLINE_MAX_BYTES`) in Redis, one key each, written and read in one
 *   round trip, within a byte budget for all of them together (`CONVERSION_INLINE_BUDGET_BYTES`: Redis
 *   also holds the queues, and must not fill up), and with the object store's time to live;
 * - the rest, and small ones while the budget is spent, in the JetStream object store, streamed in
 *   chunks that nats-server 2.9 acknowledges one by one (no batched publishes before 2.11), so a
 *   50 MB upload never sits in memory.
 *
 * For a 2 MB PNG this takes the upload from about 40 ms (16 acknowledged chunks, each hashed) to a few,
 * and the worker's read the same. A reader looks in Redis first, then in the object store.
 */
export class ConversionFiles {
  private readonly keys: { ledger: string; sizes: string; total: string };

  constructor(
    readonly store: ObjectStore,
    private readonly redis: Redis,
    private readonly settings: InlineFilesSettings,
  ) {
    const base = `${settings.prefix}:conversion-files`;
    this.keys = { ledger: `${base}:ledger`, sizes: `${base}:sizes`, total: `${base}:bytes` };
  }

  private key(name: string): string {
    return `${this.settings.prefix}:conversion-file:${name}`;
  }

  private keysOf(name: string): [string, string, string, string] {
    return [this.key(name), this.keys.ledger, this.keys.sizes, this.keys.total];
  }

  /** Keeps `data` under `name`: in Redis when small and the budget has room, in the object store otherwise. */
  async putBlob(name: string, data: Uint8Array): Promise<void> {
    if (await this.putInline(name, data)) return;
    await this.store.putBlob({ name }, data);
  }

  /**
   * Streams a file in and answers its size. At most `CONVERSION_INLINE_MAX_BYTES` (and one chunk) is
   * held in memory: a file that turns out larger continues into the object store as it arrives.
   */
  async putStream(name: string, source: AsyncIterable<Uint8Array>): Promise<number> {
    const chunks = source[Symbol.asyncIterator]();
    const head: Uint8Array[] = [];
    let size = 0;
    while (size <= this.settings.maxBytes) {
      const next = await chunks.next();
      if (next.done) {
        await this.putBlob(name, Buffer.concat(head, size));
        return size;
      }
      head.push(next.value);
      size += next.value.byteLength;
    }
    async function* rest(): AsyncGenerator<Uint8Array> {
      yield* head.splice(0);
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        size += next.value.byteLength;
        yield next.value;
      }
    }
    await this.store.put({ name }, Readable.toWeb(Readable.from(rest())) as unknown as Parameters<ObjectStore['put']>[1]);
    return size;
  }

  /** The whole file, or null when it is in neither tier. */
  async getBlob(name: string): Promise<Uint8Array | null> {
    const inline = this.settings.maxBytes > 0 ? await this.redis.getBuffer(this.key(name)) : null;
    return inline ?? this.store.getBlob(name);
  }

  /** The file as a stream (from the object store, chunk by chunk), or null when it is in neither tier. */
  async open(name: string): Promise<Readable | null> {
    const inline = this.settings.maxBytes > 0 ? await this.redis.getBuffer(this.key(name)) : null;
    if (inline) return Readable.from([inline]);
    const stored = await this.store.get(name);
    return stored ? Readable.fromWeb(stored.data as import('node:stream/web').ReadableStream<Uint8Array>) : null;
  }

  /** Removes the file from whichever tier holds it (nothing when it is in neither). */
  async delete(name: string): Promise<void> {
    const removed = Number(await this.redis.eval(DELETE, 4, ...this.keysOf(name)));
    if (removed === 0) await this.store.delete(name);
  }

  private async putInline(name: string, data: Uint8Array): Promise<boolean> {
    if (this.settings.maxBytes === 0 || data.byteLength > this.settings.maxBytes) return false;
    const { ttlMs, budgetBytes, oneWriteMaxBytes = ONE_WRITE_MAX_BYTES } = this.settings;
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const oneWrite = data.byteLength <= oneWriteMaxBytes;
    const reserved = oneWrite
      ? await this.redis.eval(RESERVE_AND_WRITE, 4, ...this.keysOf(name), data.byteLength, ttlMs, budgetBytes, bytes)
      : await this.redis.eval(RESERVE, 4, ...this.keysOf(name), data.byteLength, ttlMs, budgetBytes);
    if (Number(reserved) !== 1) {
      // Refused (the budget is spent): the file goes to the object store, and an older copy under this
      // name goes away with its bytes, so no reader finds it in Redis before the new one.
      await this.redis.eval(DELETE, 4, ...this.keysOf(name));
      return false;
    }
    if (oneWrite) return true;
    try {
      await this.redis.set(this.key(name), bytes, 'PX', ttlMs);
    } catch (error) {
      await this.redis.eval(DELETE, 4, ...this.keysOf(name)).catch(() => undefined); // the bytes go back
      throw error;
    }
    return true;
  }
}
