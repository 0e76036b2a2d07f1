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

// The formatter for the amounts written by Intl (fractions of a cent, -0, 10^15 cents or more, where
// Intl's own division by 100 is no longer exact), made on first use.
let usd: Intl.NumberFormat | undefined;

/**
 * Cents as en-US US dollars (amounts are cents / 100), e.g. 1250 → "$12.50", -123456 → "-$1,234.56":
 * the text Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }) writes (dates.spec.ts
 * compares them), written here for whole cents. A page's first Intl formatter
 * loads the locale's data: that took about 25 ms on this machine, 100 ms of a phone's start-up four
 * times slower, on every page that shows a price (a shop's first render spent most of its time there).
 */
export function formatUsd(cents: number): string {
  if (!Number.isInteger(cents) || Math.abs(cents) >= 1e15 || Object.is(cents, -0)) {
    usd ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    return usd.format(cents / 100);
  }
  const magnitude = Math.abs(cents);
  const dollars = Math.floor(magnitude / 100).toString();
  const grouped = dollars.replace(/\B(?=(\d{3})+$)/g, ',');
  const rest = (magnitude % 100).toString().padStart(2, '0');
  return `${cents < 0 ? '-' : ''}$${grouped}.${rest}`;
}
