import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { serviceDataSourceOptions, sql } from '@tinkerdesk/persistence';
import { RepositoryDatabase, staysBlocked } from '@tinkerdesk/testing';
import { dataSourceOptions } from '../database/data-source.js';
import { PassesRepository, type PassWrite } from './passes.repository.js';

let db: RepositoryDatabase;
let repository: PassesRepository;

beforeAll(async () => {
  db = await RepositoryDatabase.create((url) => serviceDataSourceOptions(dataSourceOptions(url)));
  repository = new PassesRepository(db.dataSource);
});

afterAll(() => db?.close());

async function image(userId: string, seed: string = randomUUID()): Promise<string> {
  const bytes = Buffer.from(seed);
  const id = createHash('sha256').update(`${userId}\n`).update(bytes).digest('hex');
  await repository.storeImage({ id, userId, bytes, width: 10, height: 20 });
  return id;
}

function pass(userId: string, fields: Partial<PassWrite> = {}): PassWrite {
  return {
    id: randomUUID(),
    userId,
    cardTitle: 'Card',
    header: 'Header',
    subheader: null,
    textRows: [{ header: 'L', body: 'V' }],
    barcode: null,
    backgroundColor: '#112233',
    logoId: null,
    heroId: null,
    ...fields,
  };
}

const allow = async (): Promise<void> => undefined;
const imageExists = async (id: string): Promise<boolean> =>
  (await sql.rows(db.dataSource, `SELECT 1 FROM "terminals"."pass_image" WHERE "id" = $1`, [id])).length > 0;

describe('images', () => {
  it('stores an image once per id (a second store refreshes it) and reads it back', async () => {
    const user = randomUUID();
    const id = await image(user, 'same');
    await expect(image(user, 'same')).resolves.toBe(id);
    await expect(repository.image(id)).resolves.toMatchObject({ id, width: 10, height: 20, bytes: Buffer.from('same') });
    await expect(repository.image('0'.repeat(64))).resolves.toBeNull();
    await expect(repository.ownImages([id, 'f'.repeat(64)], user)).resolves.toEqual(new Set([id]));
    await expect(repository.ownImages([id], randomUUID())).resolves.toEqual(new Set());
  });

  it('sweeps old images no pass references', async () => {
    const user = randomUUID();
    const loose = await image(user);
    const used = await image(user);
    await repository.save(pass(user, { logoId: used }), allow);
    await sql.execute(
      db.dataSource,
      `UPDATE "terminals"."pass_image" SET "stored" = now() - interval '2 hours' WHERE "id" = ANY($1::text[])`,
      [[loose, used]],
    );
    await expect(repository.sweepImages(3600)).resolves.toBeGreaterThanOrEqual(1);
    await expect(imageExists(loose)).resolves.toBe(false);
    await expect(imageExists(used)).resolves.toBe(true);
  });
});

describe('passes', () => {
  it('creates, reads with image sizes, replaces keeping an image slot left undefined, and drops the unreferenced image', async () => {
    const user = randomUUID();
    const logo = await image(user);
    const hero = await image(user);
    const draft = pass(user, { logoId: logo, heroId: hero, barcode: { type: 'qrcode', value: 'm' } });
    const created = await repository.save(draft, allow);
    expect(created).toMatchObject({
      created: true,
      row: {
        id: draft.id,
        logo: { id: logo, width: 10, height: 20 },
        hero: { id: hero },
        textRows: draft.textRows,
        barcode: draft.barcode,
      },
    });
    const replaced = await repository.save({ ...draft, header: 'New', logoId: undefined, heroId: null }, allow);
    expect(replaced).toMatchObject({ created: false, row: { header: 'New', logo: { id: logo }, hero: null } });
    expect(replaced!.row.modified.getTime()).toBeGreaterThan(created!.row.modified.getTime());
    await expect(imageExists(hero)).resolves.toBe(false);
    await expect(repository.find(draft.id, randomUUID())).resolves.toBeNull();
  });

  it('answers null for another account’s id, and passes check the stored pass and own images', async () => {
    const user = randomUUID();
    const mine = await image(user);
    const draft = pass(user);
    await repository.save(draft, allow);
    await expect(repository.save({ ...draft, userId: randomUUID() }, allow)).resolves.toBeNull();
    const seen: unknown[] = [];
    await repository.save({ ...draft, logoId: mine }, async (existing, own) => void seen.push(existing, own));
    expect(seen).toEqual([{ userId: user, logoId: null, heroId: null }, new Set([mine])]);
    await expect(repository.save(pass(user), () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  });

  it('refuses an image that does not exist (foreign key)', async () => {
    await expect(repository.save(pass(randomUUID(), { logoId: 'a'.repeat(64) }), allow)).rejects.toMatchObject({
      driverError: { code: '23503' },
    });
  });

  it('a save waits for another save of the same pass (FOR UPDATE)', async () => {
    const user = randomUUID();
    const draft = pass(user);
    await repository.save(draft, allow);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    // The check runs inside the transaction, after the pass row is locked (FOR UPDATE).
    const first = repository.save({ ...draft, header: 'first' }, () => {
      entered();
      return held;
    });
    await inside;
    const second = repository.save({ ...draft, header: 'second' }, allow);
    expect(await staysBlocked(second)).toBe(true);
    release();
    await first;
    await expect(second).resolves.toMatchObject({ row: { header: 'second' } });
  });

  it('removes a pass with the images only it referenced', async () => {
    const user = randomUUID();
    const shared = await image(user);
    const only = await image(user);
    const a = pass(user, { logoId: shared, heroId: only });
    await repository.save(a, allow);
    await repository.save(pass(user, { logoId: shared }), allow);
    await expect(repository.remove(a.id, randomUUID())).resolves.toBe(false);
    await expect(repository.remove(a.id, user)).resolves.toBe(true);
    await expect(imageExists(only)).resolves.toBe(false);
    await expect(imageExists(shared)).resolves.toBe(true);
  });

  it('lists by each sort key in both directions with the total; the id breaks ties', async () => {
    const user = randomUUID();
    const b = pass(user, { cardTitle: 'B', header: 'x' });
    const a = pass(user, { cardTitle: 'A', header: 'x' });
    const c = pass(user, { cardTitle: 'C', header: 'x' });
    for (const p of [b, a, c]) await repository.save(p, allow);
    await expect(repository.count(user)).resolves.toBe(3);
    const titles = async (sort: 'created' | 'modified' | 'cardTitle' | 'header', dir: 'ASC' | 'DESC', offset = 0, limit = 10) =>
      (await repository.list(user, { offset, limit, sort, dir })).rows.map((r) => r.cardTitle);
    await expect(titles('cardTitle', 'ASC')).resolves.toEqual(['A', 'B', 'C']);
    await expect(titles('cardTitle', 'DESC')).resolves.toEqual(['C', 'B', 'A']);
    await expect(titles('created', 'ASC')).resolves.toEqual(['B', 'A', 'C']);
    await expect(titles('modified', 'DESC', 1, 1)).resolves.toEqual(['A']);
    const byHeader = [a, b, c].map((p) => p.id).sort();
    expect((await repository.list(user, { offset: 0, limit: 10, sort: 'header', dir: 'ASC' })).rows.map((r) => r.id)).toEqual(byHeader);
    await expect(repository.list(user, { offset: 2, limit: 10, sort: 'created', dir: 'ASC' })).resolves.toMatchObject({ total: 3 });
  });
});
