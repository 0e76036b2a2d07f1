import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TERMINALS_EVENTS } from '@tinkerdesk/contracts';
import { serviceDataSourceOptions, sql } from '@tinkerdesk/persistence';
import { RepositoryDatabase } from '@tinkerdesk/testing';
import { dataSourceOptions } from '../database/data-source.js';
import { terminalsEvent } from '../events/terminals-events.js';
import { TerminalsRepository, type TerminalRow } from './terminals.repository.js';

let db: RepositoryDatabase;
let repository: TerminalsRepository;

beforeAll(async () => {
  db = await RepositoryDatabase.create((url) => serviceDataSourceOptions(dataSourceOptions(url)));
  repository = new TerminalsRepository(db.dataSource);
});

afterAll(() => db?.close());

const subscription = { endpoint: 'https://push.example/1', expirationTime: null, keys: { p256dh: 'p', auth: 'a' } };

function terminal(userId: string, app: TerminalRow['app'] = null): Parameters<TerminalsRepository['insert']>[0] {
  return {
    id: randomUUID(),
    userId,
    label: 'Phone',
    send: true,
    receive: true,
    active: true,
    details: { browser: 'Chromium' },
    platform: 'Browser (mobile)',
    capabilities: ['push'],
    remote: false,
    app,
  };
}

function share(terminalId: string, userId: string, content = 'https://example.test') {
  return {
    id: randomUUID(),
    terminalId,
    userId,
    fromTerminalId: null,
    contentType: 'text/x-uri' as const,
    content,
    description: '',
    push: 'none' as const,
  };
}

describe('terminals', () => {
  it('inserts and reads back every field, finds by owner and token hash only', async () => {
    const user = randomUUID();
    const row = terminal(user);
    const inserted = await repository.insert(row, `hash-${row.id}`);
    expect(inserted).toEqual({
      ...row,
      destination: null,
      subscription: null,
      inbox: 0,
      created: expect.any(Date),
      modified: expect.any(Date),
    });
    expect(inserted).not.toHaveProperty('tokenHash');
    await expect(repository.find(row.id, randomUUID())).resolves.toBeNull();
    await expect(repository.findByTokenHash(`hash-${row.id}`)).resolves.toMatchObject({ id: row.id });
    await expect(repository.findByTokenHash('unknown')).resolves.toBeNull();
  });

  it('refuses a token hash twice (unique) and a platform outside the list (check)', async () => {
    const user = randomUUID();
    const row = terminal(user);
    await repository.insert(row, `dup-${row.id}`);
    await expect(repository.insert(terminal(user), `dup-${row.id}`)).rejects.toThrow(/unique/);
    await expect(repository.insert({ ...terminal(user), platform: 'Toaster' as never }, randomUUID())).rejects.toThrow(/check/);
  });

  it('lists and counts the user’s terminals, oldest first, with their inbox counts', async () => {
    const user = randomUUID();
    const first = await repository.insert(terminal(user), randomUUID());
    const second = await repository.insert(terminal(user), randomUUID());
    await repository.insertShare(share(second.id, user));
    await repository.insertShare(share(second.id, user));
    await expect(repository.count(user)).resolves.toBe(2);
    const listed = await repository.list(user);
    expect(listed.map((t) => [t.id, t.inbox])).toEqual([
      [first.id, 0],
      [second.id, 2],
    ]);
  });

  it('updates only the given fields and the modified time; not another user’s terminal', async () => {
    const user = randomUUID();
    const row = await repository.insert(terminal(user), randomUUID());
    const other = await repository.insert(terminal(user), randomUUID());
    const updated = await repository.update(row.id, user, { label: 'Laptop', send: false, destination: other.id });
    expect(updated).toMatchObject({ label: 'Laptop', send: false, receive: true, destination: other.id });
    expect(updated!.modified.getTime()).toBeGreaterThanOrEqual(row.modified.getTime());
    await expect(repository.update(row.id, user, {})).resolves.toMatchObject({ label: 'Laptop' });
    await expect(repository.update(row.id, user, { destination: null })).resolves.toMatchObject({ destination: null });
    await expect(repository.update(row.id, randomUUID(), { label: 'x' })).resolves.toBeNull();
    await expect(repository.find(row.id, user)).resolves.toMatchObject({ label: 'Laptop' });
  });

  it('clears the destination when that terminal goes (ON DELETE SET NULL)', async () => {
    const user = randomUUID();
    const row = await repository.insert(terminal(user), randomUUID());
    const target = await repository.insert(terminal(user), randomUUID());
    await repository.update(row.id, user, { destination: target.id });
    await expect(repository.remove(target.id, user)).resolves.toBe(true);
    await expect(repository.remove(target.id, user)).resolves.toBe(false);
    await expect(repository.find(row.id, user)).resolves.toMatchObject({ destination: null });
  });

  it('sets a subscription and drops it only while it is still that endpoint', async () => {
    const user = randomUUID();
    const row = await repository.insert(terminal(user), randomUUID());
    await expect(repository.setSubscription(row.id, user, subscription)).resolves.toMatchObject({ subscription });
    await expect(repository.dropSubscription(row.id, 'https://push.example/other')).resolves.toBe(false);
    await expect(repository.dropSubscription(row.id, subscription.endpoint)).resolves.toBe(true);
    await expect(repository.find(row.id, user)).resolves.toMatchObject({ subscription: null });
  });

  it('keeps the app that registered a terminal, lists its grants and removes them with their inboxes', async () => {
    const user = randomUUID();
    const own = await repository.insert(terminal(user), randomUUID());
    const a = await repository.insert(terminal(user, { grantId: 'g2', id: randomUUID(), name: 'App' }), randomUUID());
    await repository.insert(terminal(user, { grantId: 'g1', id: randomUUID(), name: 'App' }), randomUUID());
    await repository.insert(terminal(user, { grantId: 'g1', id: randomUUID(), name: 'App' }), randomUUID());
    await repository.insertShare(share(a.id, user));
    expect((await repository.find(a.id, user))?.app).toMatchObject({ grantId: 'g2', name: 'App' });
    await expect(repository.grantIds(user)).resolves.toEqual(['g1', 'g2']);
    await expect(repository.removeByGrants([])).resolves.toBe(0);
    await expect(repository.removeByGrants(['g1', 'g2'])).resolves.toBe(3);
    await expect(repository.list(user)).resolves.toEqual([expect.objectContaining({ id: own.id, app: null })]);
    const left = await sql.one<{ n: number }>(
      db.dataSource,
      `SELECT count(*)::int AS "n" FROM "terminals"."share" WHERE "terminal_id" = $1`,
      [a.id],
    );
    expect(left.n).toBe(0);
  });
});

describe('shares', () => {
  it('inserts with its time, sets the push state, pages newest first with the total, removes from its terminal only', async () => {
    const user = randomUUID();
    const row = await repository.insert(terminal(user), randomUUID());
    const first = await repository.insertShare(share(row.id, user, 'one'));
    const second = await repository.insertShare(share(row.id, user, 'two'));
    expect(first).toMatchObject({ content: 'one', pushError: null, created: expect.any(Date) });
    await repository.setPush(first.id, 'failed', 'gone');
    await expect(repository.findShare(first.id)).resolves.toMatchObject({ push: 'failed', pushError: 'gone' });
    await expect(repository.findShare(randomUUID())).resolves.toBeNull();
    const page = await repository.shares(row.id, 0, 1);
    expect(page).toEqual({ rows: [expect.objectContaining({ id: second.id })], total: 2 });
    await expect(repository.shares(row.id, 1, 5)).resolves.toEqual({ rows: [expect.objectContaining({ id: first.id })], total: 2 });
    await expect(repository.removeShare(first.id, randomUUID())).resolves.toBe(false);
    await expect(repository.removeShare(first.id, row.id)).resolves.toBe(true);
  });

  it('refuses a share to a terminal that does not exist (foreign key)', async () => {
    await expect(repository.insertShare(share(randomUUID(), randomUUID()))).rejects.toThrow(/foreign key/);
  });

  const created = (s: ReturnType<typeof share>) =>
    terminalsEvent(
      TERMINALS_EVENTS.shareCreated,
      { type: 'share', id: s.id },
      { share: { id: s.id, terminalId: s.terminalId, userId: s.userId, fromTerminalId: null }, push: null },
    );
  const outboxOf = (shareId: string) =>
    sql.rows<{ name: string; aggregate_type: string; payload: unknown; published_at: Date | null }>(
      db.dataSource,
      `SELECT "name", "aggregate_type", "payload", "published_at" FROM "terminals"."outbox_event" WHERE "aggregate_id" = $1`,
      [shareId],
    );

  it('records the share’s events in the outbox in its transaction; a share refused leaves no event', async () => {
    const user = randomUUID();
    const row = await repository.insert(terminal(user), randomUUID());
    const kept = share(row.id, user);
    await repository.insertShare(kept, [created(kept)]);
    await expect(outboxOf(kept.id)).resolves.toEqual([
      { name: 'terminals.share.created', aggregate_type: 'share', payload: created(kept).payload, published_at: null },
    ]);
    const refused = share(randomUUID(), user);
    await expect(repository.insertShare(refused, [created(refused)])).rejects.toThrow(/foreign key/);
    await expect(outboxOf(refused.id)).resolves.toEqual([]);
  });
});
