/**
 * Orders names alphabetically without regard to case ("Base64 decode" before "bcrypt"), as
 * `localeCompare` orders the site's English names (text-order.spec.ts checks the tools' and the
 * barcode types' lists), but without the browser's collation: the first `localeCompare` or
 * `Intl.Collator` of a page loads its data, which took about 8 ms of the app's start-up on this machine
 * (33 ms on a phone four times slower) when the tool registry sorted its list as the app booted.
 */
export function compareNames(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
