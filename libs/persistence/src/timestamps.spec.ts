import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import pg from 'pg';
import { parseTimestamptz, serviceTypeParsers } from './timestamps.js';

const pgParse = pg.types.getTypeParser(1184, 'text') as (text: string) => unknown;

/** A timestamptz as PostgreSQL writes it in a UTC session (0 to 6 digits of fraction). */
function written(date: Date, fractionDigits: number, micros: number): string {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const fraction = `${iso.slice(20, 23)}${String(micros).padStart(3, '0')}`.slice(0, fractionDigits).replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}+00`;
}

describe('parseTimestamptz', () => {
  it('reads the same Date as pg for any UTC timestamp PostgreSQL writes', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 999 }),
        (date, fractionDigits, micros) => {
          const text = written(date, fractionDigits, micros);
          const ours = parseTimestamptz(text);
          expect(ours).toBeInstanceOf(Date);
          expect((ours as Date).getTime()).toBe((pgParse(text) as Date).getTime());
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('hands every other form to pg: other offsets, BC, infinity, early years, damaged text', () => {
    for (const text of [
      '2026-11-26 10:15:00.123456+01',
      '2026-11-26 10:15:00+05:30',
      '2026-11-26 10:15:00-08',
      '0044-03-15 12:00:00+00 BC',
      '0050-01-01 00:00:00+00',
      'infinity',
      '-infinity',
      '2026-11-26T10:15:00+00',
      '2026-1a-26 10:15:00+00',
      '2026-11-26 10:15:00.+00',
      '2026-11-26 10:15:00.12x4+00',
    ]) {
      const ours = parseTimestamptz(text);
      const theirs = pgParse(text);
      if (theirs instanceof Date) expect(ours instanceof Date ? ours.getTime() : ours).toEqual(theirs.getTime());
      else expect(ours).toEqual(theirs);
    }
  });

  it("is the pools' parser of timestamptz text only; every other type keeps pg's", () => {
    expect(serviceTypeParsers.getTypeParser(1184, 'text')).toBe(parseTimestamptz);
    expect(serviceTypeParsers.getTypeParser(1184)).toBe(parseTimestamptz);
    expect(serviceTypeParsers.getTypeParser(1114, 'text')).toBe(pg.types.getTypeParser(1114, 'text'));
    expect(serviceTypeParsers.getTypeParser(3802, 'text')).toBe(pg.types.getTypeParser(3802, 'text'));
    expect(serviceTypeParsers.getTypeParser(1184, 'binary')).toBe(pg.types.getTypeParser(1184, 'binary'));
  });
});
