import { describe, expect, it } from '@jest/globals';
import { dueAt, retryAt, startProblem, type PlanTimes } from './plan-schedule.js';

const plan = (start: string, timeZone: string, reminderDay: number, interval: PlanTimes['interval'] = 'month'): PlanTimes => ({
  startAt: new Date(start),
  timeZone,
  reminderDay,
  interval,
});
const iso = (d: Date) => d.toISOString();

describe('dueAt', () => {
  it('period 0 is the start itself', () => {
    const p = plan('2026-01-31T19:00:00Z', 'America/New_York', -1);
    expect(iso(dueAt(p, 0))).toBe('2026-01-31T19:00:00.000Z');
  });

  it('the last day: the 31st, February’s 28th, the 30th, and the 29th of a leap year, at the same local time across DST', () => {
    // 14:00 in New York: 19:00Z in winter (EST), 18:00Z in summer (EDT).
    const p = plan('2026-01-31T19:00:00Z', 'America/New_York', -1);
    expect([1, 2, 3, 4].map((k) => iso(dueAt(p, k)))).toEqual([
      '2026-02-28T19:00:00.000Z',
      '2026-03-31T18:00:00.000Z',
      '2026-04-30T18:00:00.000Z',
      '2026-05-31T18:00:00.000Z',
    ]);
    expect(iso(dueAt(p, 10))).toBe('2026-11-30T19:00:00.000Z');
    expect(iso(dueAt(p, 25))).toBe('2028-02-29T19:00:00.000Z');
  });

  it('a day of the month: the 1st and the 28th', () => {
    expect(iso(dueAt(plan('2026-01-15T09:00:00Z', 'UTC', 1), 1))).toBe('2026-02-01T09:00:00.000Z');
    expect(iso(dueAt(plan('2026-01-15T09:00:00Z', 'UTC', 28), 1))).toBe('2026-02-28T09:00:00.000Z');
    expect(iso(dueAt(plan('2026-01-15T09:00:00Z', 'UTC', 28), 12))).toBe('2027-01-28T09:00:00.000Z');
  });

  it('a local time that the spring-forward night skips moves on by the gap', () => {
    // 02:30 on 8 March 2026 does not exist in New York (02:00 → 03:00): 03:30 EDT.
    const p = plan('2026-02-08T07:30:00Z', 'America/New_York', 8);
    expect(iso(dueAt(p, 1))).toBe('2026-03-08T07:30:00.000Z');
    expect(iso(dueAt(p, 2))).toBe('2026-04-08T06:30:00.000Z');
  });

  it('a local time that the fall-back night repeats is the first of the two', () => {
    // 01:30 on 25 October 2026 happens twice in London: first in BST (00:30Z).
    const p = plan('2026-09-25T00:30:00Z', 'Europe/London', 25);
    expect(iso(dueAt(p, 1))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(dueAt(p, 2))).toBe('2026-11-25T01:30:00.000Z');
  });

  it('quarters and years count months from the start’s month', () => {
    expect(iso(dueAt(plan('2026-11-20T12:00:00Z', 'Asia/Tokyo', 5, 'quarter'), 1))).toBe('2027-02-05T12:00:00.000Z');
    expect(iso(dueAt(plan('2028-02-29T12:00:00Z', 'UTC', -1, 'year'), 1))).toBe('2029-02-28T12:00:00.000Z');
  });

  it('refuses a negative or fractional period and an unknown zone', () => {
    expect(() => dueAt(plan('2026-01-01T00:00:00Z', 'UTC', 1), -1)).toThrow(RangeError);
    expect(() => dueAt(plan('2026-01-01T00:00:00Z', 'UTC', 1), 1.5)).toThrow(RangeError);
    expect(() => dueAt(plan('2026-01-01T00:00:00Z', 'Mars/Olympus', 1), 1)).toThrow(RangeError);
  });
});

describe('retryAt', () => {
  it('retries after 1 hour, 1 day and 3 days, then no more', () => {
    const failed = new Date('2026-03-01T10:00:00Z');
    expect(retryAt(failed, 1)?.toISOString()).toBe('2026-03-01T11:00:00.000Z');
    expect(retryAt(failed, 2)?.toISOString()).toBe('2026-03-02T10:00:00.000Z');
    expect(retryAt(failed, 3)?.toISOString()).toBe('2026-03-04T10:00:00.000Z');
    expect(retryAt(failed, 4)).toBeNull();
  });
});

describe('startProblem', () => {
  const now = new Date('2026-03-01T10:00:00Z');
  it('refuses a start closer than 5 minutes, in the past, or more than a year away', () => {
    expect(startProblem(new Date('2026-03-01T10:02:00Z'), now)).toBe('start must be at least 5 minutes from now');
    expect(startProblem(new Date('2026-02-01T10:00:00Z'), now)).toBe('start must be at least 5 minutes from now');
    expect(startProblem(new Date('2027-03-03T10:00:00Z'), now)).toBe('start must be within 366 days');
    expect(startProblem(new Date('nonsense'), now)).toBe('start must be a date and time');
  });
  it('takes 5 minutes ahead and anything up to a year', () => {
    expect(startProblem(new Date('2026-03-01T10:05:00Z'), now)).toBeNull();
    expect(startProblem(new Date('2027-03-01T10:00:00Z'), now)).toBeNull();
  });
});
