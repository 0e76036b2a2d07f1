/**
 * One formatter per time zone ('' for the runtime's own): building an Intl.DateTimeFormat costs far more
 * than formatting with one (it was 11% of commerce's CPU on the seller's order list, a receipt date per
 * order). Only zones the runtime accepted are kept; as a zone may be spelt in any case ('utc', 'UTC'),
 * the cache starts over past LONG_DATE_FORMATS_MAX entries rather than grow with what users type.
 */
const LONG_DATE_FORMATS_MAX = 1000;
const longDateFormats = new Map<string, Intl.DateTimeFormat>();

function longDateFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = longDateFormats.get(key);
  if (!format) {
    // Throws a RangeError for a zone the runtime does not know (nothing is kept then).
    format = new Intl.DateTimeFormat('en-US', {
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
      ...(timeZone ? { timeZone } : {}),
    });
    if (longDateFormats.size >= LONG_DATE_FORMATS_MAX) longDateFormats.clear();
    longDateFormats.set(key, format);
  }
  return format;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * The long format in UTC without Intl (what the order list writes, a receipt date per order): formatToParts
 * costs about 3 µs a call, this a tenth of it. The same text as en-US Intl's parts (dates.spec.ts compares
 * them); years outside 1000–9999 are left to Intl.
 */
function formatUtcLongDate(date: Date): string | undefined {
  const year = date.getUTCFullYear();
  if (year < 1000 || year > 9999) return undefined;
  const hour = date.getUTCHours();
  const minute = date.getUTCMinutes();
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${year} ${hour % 12 || 12}:${minute < 10 ? '0' : ''}${minute} ${hour < 12 ? 'AM' : 'PM'}`;
}

/**
 * Dates as the site shows them (the long 'LLL' format, e.g. "November 24, 2026 11:53 AM"),
 * in the user's time zone when there is one.
 */
export function formatLongDate(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  if (timeZone === 'UTC') {
    const utc = formatUtcLongDate(date);
    if (utc !== undefined) return utc;
  }
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = longDateFormat(timeZone).formatToParts(date);
  } catch {
    return formatLongDate(iso);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('month')} ${part('day')}, ${part('year')} ${part('hour')}:${part('minute')} ${part('dayPeriod').toUpperCase()}`;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Cents as en-US US dollars (amounts are cents / 100), e.g. 1250 → "$12.50". */
export function formatUsd(cents: number): string {
  return usd.format(cents / 100);
}
