import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { formatUuid, generateUuids, inspectUuid, UuidError } from './guid.js';

describe('generateUuids', () => {
  it('makes v4 UUIDs: random, right version and variant, all different', () => {
    const ids = generateUuids(1000, 'v4');
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('makes v7 UUIDs in strictly increasing order, carrying the time', () => {
    const before = Date.now();
    const ids = generateUuids(2000, 'v7');
    const after = Date.now();
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    for (const id of [ids[0]!, ids.at(-1)!]) {
      const info = inspectUuid(id);
      expect(info.version).toBe(7);
      expect(info.time!.getTime()).toBeGreaterThanOrEqual(before);
      expect(info.time!.getTime()).toBeLessThanOrEqual(after + 1);
    }
  });

  it('writes upper case, braces and no hyphens as asked', () => {
    const [id] = generateUuids(1, 'v4', { upper: true, braces: true, hyphens: false });
    expect(id).toMatch(/^\{[0-9A-F]{32}\}$/);
    expect(() => generateUuids(0, 'v4')).toThrow(RangeError);
  });
});

describe('inspectUuid', () => {
  it('reads any style back to the canonical form', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.boolean(), fc.boolean(), fc.boolean(), (uuid, upper, braces, hyphens) => {
        expect(inspectUuid(formatUuid(uuid, { upper, braces, hyphens })).canonical).toBe(uuid.toLowerCase());
      }),
    );
    expect(inspectUuid('urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6').canonical).toBe('f81d4fae-7dec-11d0-a765-00a0c91e6bf6');
  });

  it('tells version, variant and time (RFC 9562 test vectors)', () => {
    const v1 = inspectUuid('C232AB00-9414-11EC-B3C8-9F6BDECED846');
    expect([v1.version, v1.variant, v1.time?.toISOString()]).toEqual([1, 'RFC 9562', '2022-02-22T19:22:22.000Z']);
    const v6 = inspectUuid('1EC9414C-232A-6B00-B3C8-9F6BDECED846');
    expect([v6.version, v6.time?.toISOString()]).toEqual([6, '2022-02-22T19:22:22.000Z']);
    const v7 = inspectUuid('017F22E2-79B0-7CC3-98C4-DC0C0C07398F');
    expect([v7.version, v7.variant, v7.time?.toISOString()]).toEqual([7, 'RFC 9562', '2022-02-22T19:22:22.000Z']);
    expect(inspectUuid('919108f7-52d1-4320-9bac-f847db4148a8')).toMatchObject({ version: 4, variant: 'RFC 9562' });
    expect(inspectUuid('00000000-0000-0000-0000-000000000000')).toMatchObject({ nil: true });
    expect(inspectUuid('ffffffff-ffff-ffff-ffff-ffffffffffff')).toMatchObject({ max: true });
    expect(inspectUuid('919108f7-52d1-4320-cbac-f847db4148a8').variant).toBe('Microsoft (reserved)');
  });

  it('explains what is wrong with a non-UUID', () => {
    expect(() => inspectUuid('1234')).toThrow('A UUID has 32 hexadecimal digits; this has 4');
    expect(() => inspectUuid('919108f7-52d1-4320-9bac-f847db4148zz')).toThrow(UuidError);
    expect(() => inspectUuid('919108f752d1-4320-9bac-f847-db4148a8')).toThrow('The hyphens are out of place');
  });
});
