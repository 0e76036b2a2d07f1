import { describe, expect, it } from '@jest/globals';
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import fc from 'fast-check';
import { UpdateProfileDto } from './identity.js';
import { canonicalTimeZone, TIME_ZONES } from './time-zones.js';

describe('time zones', () => {
  it('lists the current IANA names, UTC first, and none of the old ones', () => {
    expect(TIME_ZONES[0]).toBe('UTC');
    expect(TIME_ZONES).toEqual(
      expect.arrayContaining(['Asia/Kolkata', 'Europe/Kyiv', 'Asia/Ho_Chi_Minh', 'Europe/Berlin', 'America/New_York']),
    );
    for (const old of ['Asia/Calcutta', 'Europe/Kiev', 'Asia/Saigon', 'US/Eastern', 'Asia/Katmandu']) expect(TIME_ZONES).not.toContain(old);
    expect(new Set(TIME_ZONES).size).toBe(TIME_ZONES.length);
  });

  it('reads old names as the current ones, in any letter case', () => {
    expect(canonicalTimeZone('Asia/Calcutta')).toBe('Asia/Kolkata');
    expect(canonicalTimeZone('Europe/Kiev')).toBe('Europe/Kyiv');
    expect(canonicalTimeZone('Asia/Saigon')).toBe('Asia/Ho_Chi_Minh');
    expect(canonicalTimeZone('US/Eastern')).toBe('America/New_York');
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('Etc/UTC')).toBe('UTC');
    expect(canonicalTimeZone('GMT')).toBe('UTC');
    expect(canonicalTimeZone('Etc/GMT+5')).toBe('Etc/GMT+5');
    for (const bad of ['', 'Mars/Olympus', 'Europe', 'Etc/GMT+13', 'Etc/GMT-15', 'Europe/Berlin/x'])
      expect(canonicalTimeZone(bad)).toBeUndefined();
  });

  it('maps every current name to itself, and every name to a zone with the same time today (property)', () => {
    for (const zone of TIME_ZONES) expect(canonicalTimeZone(zone)).toBe(zone);
    const when = new Date('2026-01-15T12:00:00Z');
    const offset = (zone: string) => new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' }).format(when);
    // Every name this runtime knows (Intl's list follows CLDR, with old names such as Asia/Calcutta).
    fc.assert(
      fc.property(fc.constantFrom(...Intl.supportedValuesOf('timeZone')), (name) => {
        const current = canonicalTimeZone(name);
        expect(current).toBeDefined();
        expect(offset(current!)).toBe(offset(name));
      }),
      { numRuns: 300 },
    );
  });

  it('the profile accepts current and old names and refuses others', () => {
    const errors = (tz: unknown) =>
      validateSync(plainToInstance(UpdateProfileDto, { tz })).flatMap((e) => Object.values(e.constraints ?? {}));
    expect(errors('Europe/Kyiv')).toEqual([]);
    expect(errors('Europe/Kiev')).toEqual([]);
    expect(errors('Asia/Calcutta')).toEqual([]);
    expect(errors('Mars/Olympus')).toEqual(['tz must be an IANA time zone such as Europe/Paris']);
    expect(errors(42)).toEqual(['tz must be an IANA time zone such as Europe/Paris']);
  });
});
