import { describe, expect, it } from '@jest/globals';
import { formatLongDate } from './dates.js';

describe('formatLongDate', () => {
  it("writes the long 'LLL' format in the given time zone", () => {
    expect(formatLongDate('2026-11-24T11:53:00Z', 'UTC')).toBe('November 24, 2026 11:53 AM');
    expect(formatLongDate('2026-11-24T23:05:00Z', 'UTC')).toBe('November 24, 2026 11:05 PM');
    expect(formatLongDate('2026-11-24T23:05:00Z', 'Asia/Tokyo')).toBe('November 25, 2026 8:05 AM');
  });

  it('keeps a text that is not a date, and survives an unknown zone', () => {
    expect(formatLongDate('not a date', 'UTC')).toBe('not a date');
    expect(formatLongDate('2026-11-24T11:53:00Z', 'Not/AZone')).toMatch(/^November 24, 2026 \d{1,2}:53 [AP]M$/);
  });
});
