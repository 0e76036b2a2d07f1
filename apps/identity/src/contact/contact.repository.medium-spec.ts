import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { serviceDataSourceOptions } from '@tinkerdesk/persistence';
import { RepositoryDatabase } from '@tinkerdesk/testing';
import { dataSourceOptions } from '../database/data-source.js';
import { ContactMessageEntity } from './contact-message.entity.js';
import { ContactRepository } from './contact.repository.js';

let db: RepositoryDatabase;
let repository: ContactRepository;

beforeAll(async () => {
  db = await RepositoryDatabase.create((url) => serviceDataSourceOptions(dataSourceOptions(url)));
  repository = new ContactRepository(db.dataSource);
});

afterAll(() => db?.close());

describe('ContactRepository', () => {
  it('insert keeps the question as written and stamps when it came', async () => {
    const before = Date.now();
    const id = randomUUID();
    const saved = await repository.insert({ id, name: 'Ada', email: 'ada@example.com', question: 'Line one\nline two — ünïcode' });
    expect(saved).toMatchObject({ id, name: 'Ada', email: 'ada@example.com', question: 'Line one\nline two — ünïcode' });
    expect(saved.created.getTime()).toBeGreaterThanOrEqual(before - 5000);
    expect(await repository.findById(id)).toEqual(saved);
  });

  it('an empty name is stored as empty, not as a missing value', async () => {
    const id = randomUUID();
    await repository.insert({ id, name: '', email: 'anon@example.com', question: 'Hello?' });
    expect((await repository.findById(id))?.name).toBe('');
  });

  it('findById answers null for an id it does not hold', async () => {
    expect(await repository.findById(randomUUID())).toBeNull();
  });

  it('the same id twice is refused by the primary key (nothing is overwritten)', async () => {
    const id = randomUUID();
    await repository.insert({ id, name: 'First', email: 'first@example.com', question: 'One' });
    await expect(
      db.dataSource.getRepository(ContactMessageEntity).insert({ id, name: 'Second', email: 'second@example.com', question: 'Two' }),
    ).rejects.toThrow(/duplicate key/);
    expect((await repository.findById(id))?.name).toBe('First');
  });
});
