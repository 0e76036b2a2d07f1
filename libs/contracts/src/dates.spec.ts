import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { formatLongDate, formatUsd } from './dates.js';

describe('formatLongDate', () => {
  it("writes the long 'LLL' format in the given time zone", () => {
    expect(formatLongDate('2026-11-24T11:53:00Z', 'UTC')).toBe('November 24, 2026 11:53 AM');
    expect(formatLongDate('2026-11-24T23:05:00Z', 'UTC')).toBe('November 24, 2026 11:05 PM');
    expect(formatLongDate('2026-11-24T23:05:00Z', 'Asia/Tokyo')).toBe('November 25, 2026 8:05 AM');
  });

  it('writes UTC without Intl exactly as Intl does (every month, hour and minute; midnight, noon; odd years)', () => {
    // 'Etc/UTC' is the same zone, written by Intl's formatter.
    const byIntl = (date: Date) => formatLongDate(date.toISOString(), 'Etc/UTC');
    // Every 7,919 minutes over eight years (every hour and minute of the day, every month and day length).
    const dates = Array.from({ length: 600 }, (_, i) => new Date(Date.UTC(2024, 0, 1) + i * 7919 * 60_000 + 59_999));
    dates.push(new Date('2026-11-24T00:00:00Z'), new Date('2026-11-24T12:00:00Z'), new Date('2028-02-29T23:59:59.999Z'));
    dates.push(
      new Date('0999-12-31T23:59:00Z'),
      new Date('1000-01-01T00:00:00Z'),
      new Date('9999-12-31T23:59:00Z'),
      new Date('+010000-01-01T00:00:00Z'),
    );
    for (const date of dates) expect(formatLongDate(date.toISOString(), 'UTC')).toBe(byIntl(date));
    expect(formatLongDate('2026-11-24T00:07:00Z', 'UTC')).toBe('November 24, 2026 12:07 AM');
    expect(formatLongDate('2026-11-24T12:30:00Z', 'UTC')).toBe('November 24, 2026 12:30 PM');
  });

  it('keeps a text that is not a date, and survives an unknown zone', () => {
    expect(formatLongDate('not a date', 'UTC')).toBe('not a date');
    expect(formatLongDate('2026-11-24T11:53:00Z', 'Not/AZone')).toMatch(/^November 24, 2026 \d{1,2}:53 [AP]M$/);
  });

  it('answers the same from its kept formatters, zone after zone (one formatter per zone)', () => {
    const zones = ['UTC', 'Asia/Tokyo', 'America/New_York', undefined, 'utc', 'Not/AZone'];
    const first = zones.map((zone) => formatLongDate('2026-07-01T04:30:00Z', zone));
    const again = zones.map((zone) => formatLongDate('2026-07-01T04:30:00Z', zone));
    expect(again).toEqual(first);
    expect(first.slice(0, 3)).toEqual(['July 1, 2026 4:30 AM', 'July 1, 2026 1:30 PM', 'July 1, 2026 12:30 AM']);
    expect(first[4]).toBe(first[0]);
  });
});

describe('formatUsd', () => {
  it('writes cents as US dollars', () => {
    expect(formatUsd(1250)).toBe('$12.50');
    expect(formatUsd(123456)).toBe('$1,234.56');
    expect(formatUsd(0)).toBe('$0.00');
  });

  it('writes what Intl writes, for every kind of amount', () => {
    const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    const edges = [
      0,
      -0,
      1,
      -1,
      9,
      10,
      99,
      100,
      101,
      999,
      1000,
      99_999,
      100_000,
      123_456_789,
      -123_456_789,
      0.5,
      12.5,
      -7.25,
      2 ** 53,
      -(2 ** 53) + 1,
    ];
    for (const cents of edges) expect(formatUsd(cents)).toBe(intl.format(cents / 100));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer(),
          fc.integer({ min: -100_000, max: 100_000 }),
          fc.maxSafeInteger().map((n) => n % 1e15),
        ),
        (cents) => {
          expect(formatUsd(cents)).toBe(intl.format(cents / 100));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
