import { formatUsd, PRICE_MAX_CENTS, PRICE_MIN_CENTS } from '@tinkerdesk/contracts/web';

/**
 * A price (or amount) typed in dollars ("12.50", "12.5", "$1,234.56", "7") as integer cents, or an error text.
 * Never through floating point: the digits are read as text.
 */
export function dollarsToCents(input: string, what: 'price' | 'amount' = 'price'): { cents: number } | { error: string } {
  const cents = parseDollars(input);
  if (cents === null) return { error: `Enter ${what === 'price' ? 'a price' : 'an amount'} in dollars, like 12.50.` };
  if (cents < PRICE_MIN_CENTS) return { error: `The ${what} must be at least $${(PRICE_MIN_CENTS / 100).toFixed(2)}.` };
  if (cents > PRICE_MAX_CENTS)
    return { error: `The ${what} may be at most $${(PRICE_MAX_CENTS / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}.` };
  return { cents };
}

/** Cents as the dollars a price field shows ("12.50"). */
export const centsToDollars = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** Cents of `currency` as money ("$1,234.50", "€12.00"); a negative amount with a minus sign ("−$5.00"). */
export function formatMoney(cents: number, currency: string): string {
  // US dollars without Intl (formatUsd: the same text, without loading the locale's data).
  const text = /^usd$/i.test(currency)
    ? formatUsd(Math.abs(cents))
    : new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(Math.abs(cents) / 100);
  return cents < 0 ? `\u2212${text}` : text;
}

/** "November 2026": the month an instant falls in, in `timeZone`. */
export function formatMonth(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone }).format(new Date(iso));
}

/** Dollars typed as text ("7.5", "$1,234.56") as integer cents, read digit by digit; null when it is not an amount. */
export function parseDollars(input: string): number | null {
  const text = input
    .trim()
    .replace(/^\$/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text);
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : null;
}
