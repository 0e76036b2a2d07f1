import {
  CALENDAR_MIN_GAP_MINUTES,
  PLAN_INTERVAL_MONTHS,
  PLAN_MAX_START_DAYS,
  PLAN_RETRY_HOURS,
  type PlanInterval,
} from '@tinkerdesk/contracts';
import { DateTime } from 'luxon';

/** What decides when a plan charges. */
export interface PlanTimes {
  /** The first charge (period 0). */
  startAt: Date;
  timeZone: string;
  interval: PlanInterval;
  /** The day of the month 1 … 28, or -1 for the last. */
  reminderDay: number;
}

/**
 * When period `period` of a plan is due. Period 0 is the start; period k is on the reminder day of the
 * month k intervals after the start's month, at the start's local time of day in the plan's zone. The
 * reminder days stop at the 28th (then "last"), so every month has them: the last day is the 31st,
 * the 30th, or February's 28th or 29th. A local time that a daylight saving change skips (02:30 on a
 * spring-forward night) moves forward by the gap (03:30); one that happens twice takes the first.
 */
export function dueAt(plan: PlanTimes, period: number): Date {
  if (!Number.isInteger(period) || period < 0) throw new RangeError(`period must be a whole number ≥ 0, not ${period}`);
  const start = DateTime.fromJSDate(plan.startAt, { zone: plan.timeZone });
  if (!start.isValid) throw new RangeError(`unknown time zone ${plan.timeZone}`);
  if (period === 0) return plan.startAt;
  const month = start.startOf('month').plus({ months: period * PLAN_INTERVAL_MONTHS[plan.interval] });
  const day = plan.reminderDay === -1 ? (month.daysInMonth ?? 28) : plan.reminderDay;
  const local = DateTime.fromObject(
    { year: month.year, month: month.month, day, hour: start.hour, minute: start.minute, second: start.second },
    { zone: plan.timeZone },
  );
  // Clocks going back repeat an hour: luxon takes the later of the two; take the earlier.
  const offsetBefore = local.minus({ hours: 3 }).offset;
  if (offsetBefore > local.offset) {
    const earlier = local.minus({ minutes: offsetBefore - local.offset });
    if (earlier.hour === local.hour && earlier.minute === local.minute) return earlier.toJSDate();
  }
  return local.toJSDate();
}

/** When a failed charge is tried again: after its `attempts`th failure; null when no retry is left. */
export function retryAt(failedAt: Date, attempts: number): Date | null {
  const hours = PLAN_RETRY_HOURS[attempts - 1];
  return hours === undefined ? null : new Date(failedAt.getTime() + hours * 3_600_000);
}

/** Why a first charge time cannot be chosen, or null (at least CALENDAR_MIN_GAP_MINUTES, 5, ahead). */
export function startProblem(start: Date, now: Date): string | null {
  if (Number.isNaN(start.getTime())) return 'start must be a date and time';
  if (start.getTime() < now.getTime() + CALENDAR_MIN_GAP_MINUTES * 60_000)
    return `start must be at least ${CALENDAR_MIN_GAP_MINUTES} minutes from now`;
  if (start.getTime() > now.getTime() + PLAN_MAX_START_DAYS * 86_400_000) return `start must be within ${PLAN_MAX_START_DAYS} days`;
  return null;
}
