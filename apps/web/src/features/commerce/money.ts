import { PRICE_MAX_CENTS, PRICE_MIN_CENTS } from '@tinkerdesk/contracts/web';

/**
 * A price typed in dollars ("12.50", "12.5", "$1,234.56", "7") as integer cents, or an error text.
 * Never through floating point: the digits are read as text.
 */
export function dollarsToCents(input: string): { cents: number } | { error: string } {
  const cents = parseDollars(input);
  if (cents === null) return { error: 'Enter a price in dollars, like 12.50.' };
  if (cents < PRICE_MIN_CENTS) return { error: `The price must be at least $${(PRICE_MIN_CENTS / 100).toFixed(2)}.` };
  if (cents > PRICE_MAX_CENTS)
    return { error: `The price may be at most $${(PRICE_MAX_CENTS / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}.` };
  return { cents };
}

/** Cents as the dollars a price field shows ("12.50"). */
export const centsToDollars = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** Dollars typed as text ("7.5", "$1,234.56") as integer cents, read digit by digit; null when it is not an amount. */
export function parseDollars(input: string): number | null {
  const text = input
    .trim()
    .replace(/^\$/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text);
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : null;
}
