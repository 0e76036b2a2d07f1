import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RepositoryDatabase } from '@tinkerdesk/testing';
import { commerceDatabase, insertService } from '../../test/repository-database.js';
import { ProviderServicesRepository } from './provider-services.repository.js';

let db: RepositoryDatabase;
let services: ProviderServicesRepository;

beforeAll(async () => {
  db = await commerceDatabase();
  services = new ProviderServicesRepository(db.dataSource);
});

afterAll(() => db?.close());

describe('reading services', () => {
  it('finds one by id as TypeORM reads it, null for an unknown id', async () => {
    const id = await insertService(db);
    const found = await services.find(id);
    expect(found).toEqual(await db.dataSource.getRepository('service').findOneBy({ id }));
    expect(found).toMatchObject({ id, name: 'Shop', displayName: 'Shop', extras: {}, created: expect.any(Date) });
    await expect(services.find(randomUUID())).resolves.toBeNull();
  });

  it("reads a service's owner and vendor as find reads them, null for an unknown id", async () => {
    const id = await insertService(db);
    const { result, queries } = await db.countQueries(() => services.owner(id));
    expect(queries).toHaveLength(1);
    const found = await services.find(id);
    expect(result).toStrictEqual({ userId: found?.userId, vendor: found?.vendor });
    await expect(services.owner(randomUUID())).resolves.toBeNull();
  });

  it('finds several in one statement, each once, leaving unknown ids out', async () => {
    const [a, b] = [await insertService(db), await insertService(db)];
    const { result, queries } = await db.countQueries(() => services.findMany([a, b, a, randomUUID()]));
    expect(queries).toHaveLength(1);
    expect(result.map((s) => s.id).sort()).toEqual([a, b].sort());
    await expect(services.findMany([])).resolves.toEqual([]);
  });

  it('finds one id given several times (a page of one shop: its orders) in one statement, as find reads it', async () => {
    const id = await insertService(db);
    const { result, queries } = await db.countQueries(() => services.findMany([id, id, id]));
    expect(queries).toHaveLength(1);
    expect(result).toEqual([await services.find(id)]);
    await expect(services.findMany([randomUUID()])).resolves.toEqual([]);
  });
});
