import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from '@tinkerdesk/persistence';
import type { RepositoryDatabase } from '@tinkerdesk/testing';
import { TimelineRepository, type NewTimelineEvent } from './timeline.repository.js';
import { commerceDatabase } from '../../test/repository-database.js';

let db: RepositoryDatabase;
let repository: TimelineRepository;

beforeAll(async () => {
  db = await commerceDatabase();
  repository = new TimelineRepository(db.dataSource);
});

afterAll(() => db?.close());

function entry(userId: string, title = 'You paid $12.50 for Poster'): NewTimelineEvent {
  return { id: randomUUID(), userId, kind: 'order.paid', title, amount: 1250, orderId: randomUUID(), requestId: null, planId: null };
}

describe('timeline', () => {
  it('inserts entries and reads one back with every field, only for its user', async () => {
    const user = randomUUID();
    const e = { ...entry(user), requestId: randomUUID(), planId: randomUUID() };
    await repository.insert([e]);
    const { userId: _userId, ...fields } = e;
    await expect(repository.find(user, e.id)).resolves.toEqual({ ...fields, created: expect.any(String) });
    await expect(repository.find(randomUUID(), e.id)).resolves.toBeNull();
    await expect(repository.find(user, randomUUID())).resolves.toBeNull();
  });

  it('keeps nulls (an entry without money or links)', async () => {
    const user = randomUUID();
    const e = { ...entry(user), amount: null, orderId: null };
    await repository.insert([e]);
    await expect(repository.find(user, e.id)).resolves.toMatchObject({ amount: null, orderId: null, requestId: null, planId: null });
  });

  it('pages newest first with the total; entries written in one transaction sort in the order they were written', async () => {
    const user = randomUUID();
    const [a, b, c] = [entry(user, 'a'), entry(user, 'b'), entry(user, 'c')];
    await db.dataSource.transaction((tx) => repository.insert([a, b, c], tx));
    await repository.insert([entry(randomUUID())]);
    const first = await repository.page(user, 0, 2);
    expect(first.total).toBe(3);
    expect(first.events.map((e) => e.title)).toEqual(['c', 'b']);
    const second = await repository.page(user, 2, 2);
    expect(second).toEqual({ events: [expect.objectContaining({ title: 'a' })], total: 3 });
    await expect(repository.page(randomUUID(), 0, 10)).resolves.toEqual({ events: [], total: 0 });
  });

  it('writes through the given transaction: nothing is left when it rolls back', async () => {
    const user = randomUUID();
    const e = entry(user);
    await expect(
      db.dataSource.transaction(async (tx) => {
        await repository.insert([e], tx);
        await expect(sql.rows(tx, `SELECT 1 FROM "commerce"."timeline_event" WHERE "id" = $1`, [e.id])).resolves.toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await expect(repository.find(user, e.id)).resolves.toBeNull();
  });

  it('refuses an id twice (primary key)', async () => {
    const e = entry(randomUUID());
    await repository.insert([e]);
    await expect(repository.insert([e])).rejects.toThrow(/duplicate key/);
  });
});
