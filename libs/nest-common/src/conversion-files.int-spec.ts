import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { ConversionFiles } from './conversion-files.js';
import { openConversionFiles } from './file-store.js';

// Real Redis and NATS (JetStream), under a prefix of this run's own.
const prefix = `t${randomBytes(4).toString('hex')}`;
let redis: Redis;
let nc: NatsConnection;
let files: ConversionFiles;
let shared: ConversionFiles;

beforeAll(async () => {
  redis = new Redis('redis://localhost:6379');
  nc = await connect({ servers: 'nats://localhost:4222' });
  files = await openConversionFiles(nc, redis, 'conversion-files-test', {
    NATS_PREFIX: prefix,
    REDIS_PREFIX: prefix,
    CONVERSION_RESULT_TTL_HOURS: 1,
    CONVERSION_STORE_MAX_BYTES: 64 * 1024 ** 2,
    CONVERSION_INLINE_MAX_BYTES: 1000,
    CONVERSION_INLINE_BUDGET_BYTES: 1500,
  });
  shared = files;
});

afterAll(async () => {
  await files?.store.destroy();
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis?.disconnect();
  await nc?.close();
});

const inRedis = (name: string) => redis.exists(`${prefix}:conversion-file:${name}`);
const inStore = async (name: string) => {
  const info = await files.store.info(name);
  return info !== null && !info.deleted; // a deleted object leaves its tombstone
};
const budgetUsed = async () => Number((await redis.get(`${prefix}:conversion-files:bytes`)) ?? 0);

describe('ConversionFiles', () => {
  it('keeps a small file in Redis within the budget, and one past the budget in the object store', async () => {
    const a = randomBytes(800);
    const b = randomBytes(800);
    await files.putBlob('a', a);
    await files.putBlob('b', b); // 800 + 800 > 1500: the budget is spent
    expect([await inRedis('a'), await inStore('a')]).toEqual([1, false]);
    expect([await inRedis('b'), await inStore('b')]).toEqual([0, true]);
    expect(await budgetUsed()).toBe(800);
    expect(Buffer.from((await files.getBlob('a')) ?? [])).toEqual(a);
    expect(Buffer.from((await files.getBlob('b')) ?? [])).toEqual(b);

    // Deleting gives the bytes back: the next small file fits again.
    await files.delete('a');
    await files.delete('b');
    expect([await inRedis('a'), await inStore('b'), await budgetUsed()]).toEqual([0, false, 0]);
    await files.putBlob('c', b);
    expect(await inRedis('c')).toBe(1);
    await files.delete('c');
    expect(await files.getBlob('c')).toBeNull();
    expect(await files.open('c')).toBeNull();
  });

  it('the size boundary: a file of exactly the inline size is kept in Redis, one byte more goes to the object store', async () => {
    const edge = randomBytes(1000);
    const past = randomBytes(1001);
    expect(await files.putStream('edge', Readable.from([edge.subarray(0, 500), edge.subarray(500)]))).toBe(1000);
    await files.putBlob('past', past);
    expect([await inRedis('edge'), await inStore('edge')]).toEqual([1, false]);
    expect([await inRedis('past'), await inStore('past')]).toEqual([0, true]);
    expect(await budgetUsed()).toBe(1000);
    expect(Buffer.from((await files.getBlob('edge')) ?? [])).toEqual(edge);
    expect(Buffer.from((await files.getBlob('past')) ?? [])).toEqual(past);
    await files.delete('edge');
    await files.delete('past');
    expect(await budgetUsed()).toBe(0);
  });

  // Small files are reserved and written in one script; larger ones (oneWriteMaxBytes) in two steps.
  it.each([
    ['in one script', undefined],
    ['reserved, then written', 0],
  ])(
    'a file written again under its name counts once; refused past the budget, its copy in Redis goes and the bytes come back (%s)',
    async (_way, oneWriteMaxBytes) => {
      const files = new ConversionFiles(shared.store, redis, {
        prefix,
        maxBytes: 1000,
        budgetBytes: 1500,
        ttlMs: 3_600_000,
        ...(oneWriteMaxBytes === undefined ? {} : { oneWriteMaxBytes }),
      });
      await files.putBlob('again', randomBytes(700));
      const second = randomBytes(900);
      await files.putBlob('again', second); // replaces the first: 900 in all, not 1,600
      expect(await budgetUsed()).toBe(900);
      await files.putBlob('other', randomBytes(500)); // 900 + 500 within 1,500
      const third = randomBytes(1000);
      await files.putBlob('again', third); // 500 + 1,000 within 1,500 once the 900 go: still inline
      expect([await inRedis('again'), await budgetUsed()]).toEqual([1, 1500]);
      await files.putBlob('other', randomBytes(600)); // 1,000 + 600 > 1,500: refused, to the object store
      expect([await inRedis('other'), await inStore('other'), await budgetUsed()]).toEqual([0, true, 1000]);
      expect(Buffer.from((await files.getBlob('again')) ?? [])).toEqual(third);
      await files.delete('again');
      await files.delete('other');
      expect([await budgetUsed(), await files.getBlob('other')]).toEqual([0, null]);
    },
  );

  it('streams an upload: whole into Redis when small, on into the object store when it turns out larger', async () => {
    const small = randomBytes(600);
    const large = randomBytes(300_000);
    const chunks = (data: Buffer) =>
      Readable.from(Array.from({ length: Math.ceil(data.length / 256) }, (_, i) => data.subarray(i * 256, (i + 1) * 256)));
    expect(await files.putStream('small', chunks(small))).toBe(600);
    expect(await files.putStream('large', chunks(large))).toBe(300_000);
    expect([await inRedis('small'), await inStore('small')]).toEqual([1, false]);
    expect([await inRedis('large'), await inStore('large')]).toEqual([0, true]);
    expect(await budgetUsed()).toBe(600); // the large one took none of the budget
    expect(await buffer((await files.open('small')) ?? Readable.from([]))).toEqual(small);
    expect(await buffer((await files.open('large')) ?? Readable.from([]))).toEqual(large);
    await files.delete('small');
    await files.delete('large');
    expect([await files.getBlob('small'), await files.getBlob('large')]).toEqual([null, null]);
  });

  it('a small upload that fails halfway leaves nothing behind in Redis and takes none of the budget, before anyone deletes it', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield randomBytes(300);
      yield randomBytes(300);
      throw new Error('the client went away');
    }
    await expect(files.putStream('halfway', failing())).rejects.toThrow('the client went away');
    expect([await inRedis('halfway'), await inStore('halfway'), await budgetUsed()]).toEqual([0, false, 0]);
  });

  it('a streamed upload the budget has no room for goes whole to the object store, nothing of it left in Redis', async () => {
    await files.putBlob('filler', randomBytes(1000));
    const data = randomBytes(900);
    // 1,000 + 900 > 1,500: refused as a whole, though its first chunk alone would have fitted.
    const parts = [data.subarray(0, 300), data.subarray(300, 600), data.subarray(600)];
    expect(await files.putStream('refused', Readable.from(parts))).toBe(900);
    expect([await inRedis('refused'), await inStore('refused'), await budgetUsed()]).toEqual([0, true, 1000]);
    expect(Buffer.from((await files.getBlob('refused')) ?? [])).toEqual(data);
    await files.delete('refused');
    await files.delete('filler');
    expect(await budgetUsed()).toBe(0);
  });

  it('stores an upload cut short by an error nowhere', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield randomBytes(2000); // past the inline size: on into the object store
      throw new Error('the client went away');
    }
    await expect(files.putStream('cut', failing())).rejects.toThrow('the client went away');
    await files.delete('cut').catch(() => undefined); // what the gateway does after a failed upload
    expect(await files.getBlob('cut')).toBeNull();
  });
});
