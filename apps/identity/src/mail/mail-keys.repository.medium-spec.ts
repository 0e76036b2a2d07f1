import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { deleteExpiredBatch, serviceDataSourceOptions } from '@tinkerdesk/persistence';
import { RepositoryDatabase } from '@tinkerdesk/testing';
import { dataSourceOptions } from '../database/data-source.js';
import { mailKeyRetentionRule, MailKeysRepository } from './mail-keys.repository.js';

let db: RepositoryDatabase;
let repository: MailKeysRepository;
let n = 0;
const key = () => `event-${++n}:buyer`;

beforeAll(async () => {
  db = await RepositoryDatabase.create((url) => serviceDataSourceOptions(dataSourceOptions(url)));
  repository = new MailKeysRepository(db.dataSource);
});

afterAll(() => db?.close());

describe('MailKeysRepository', () => {
  it('claim records a new key as not queued; after markQueued the key answers queued', async () => {
    const k = key();
    expect(await repository.claim(k, 7)).toEqual({ queued: false });
    expect(await repository.find(k)).toMatchObject({ key: k, queuedAt: null });
    // Not marked yet (the first request is queuing, or died doing so): the next one queues too, under the same job id.
    expect(await repository.claim(k, 7)).toEqual({ queued: false });
    await repository.markQueued(k);
    expect(await repository.claim(k, 7)).toEqual({ queued: true });
    expect((await repository.find(k))?.queuedAt).toBeInstanceOf(Date);
  });

  it('keys are distinct: another key is new', async () => {
    const first = key();
    await repository.claim(first, 7);
    await repository.markQueued(first);
    expect(await repository.claim(key(), 7)).toEqual({ queued: false });
  });

  it('markQueued keeps the first time it was queued', async () => {
    const k = key();
    await repository.claim(k, 7);
    await repository.markQueued(k);
    const first = (await repository.find(k))?.queuedAt;
    await repository.markQueued(k);
    expect((await repository.find(k))?.queuedAt).toEqual(first);
  });

  it('twenty claims of one key at once leave one row', async () => {
    const k = key();
    const answers = await Promise.all(Array.from({ length: 20 }, () => repository.claim(k, 7)));
    expect(answers.every((a) => a.queued === false)).toBe(true);
    expect(await db.dataSource.query(`SELECT count(*)::int AS "n" FROM "identity"."mail_key" WHERE "key" = $1`, [k])).toEqual([{ n: 1 }]);
  });

  it('a key older than the retention counts as new again', async () => {
    const k = key();
    await repository.claim(k, 7);
    await repository.markQueued(k);
    await db.dataSource.query(`UPDATE "identity"."mail_key" SET "created" = now() - interval '8 days' WHERE "key" = $1`, [k]);
    expect(await repository.claim(k, 7)).toEqual({ queued: false });
    const row = await repository.find(k);
    expect(row?.queuedAt).toBeNull();
    expect(Date.now() - row!.created.getTime()).toBeLessThan(60_000);
  });

  it('the retention rule deletes keys past the retention and keeps the others', async () => {
    const old = key();
    const recent = key();
    await repository.claim(old, 7);
    await repository.claim(recent, 7);
    await db.dataSource.query(`UPDATE "identity"."mail_key" SET "created" = now() - interval '8 days' WHERE "key" = $1`, [old]);
    await db.dataSource.query(`UPDATE "identity"."mail_key" SET "created" = now() - interval '6 days' WHERE "key" = $1`, [recent]);
    expect(await deleteExpiredBatch(db.dataSource, mailKeyRetentionRule(7))).toBeGreaterThanOrEqual(1);
    expect(await repository.find(old)).toBeNull();
    expect(await repository.find(recent)).toMatchObject({ key: recent });
  });
});
