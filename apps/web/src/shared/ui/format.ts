// Made on first use: creating an Intl formatter costs tens of milliseconds on a slow phone, which
// pages importing this module would otherwise pay while loading.
let countFormat: Intl.NumberFormat | undefined;
let shortFormat: Intl.NumberFormat | undefined;
const count = (): Intl.NumberFormat => (countFormat ??= new Intl.NumberFormat('en'));
const short = (): Intl.NumberFormat => (shortFormat ??= new Intl.NumberFormat('en', { maximumFractionDigits: 1 }));

/** A count with thousands separators: 1,234,567. */
export function formatCount(n: number): string {
  return count().format(n);
}

/** A file size for people: "512 bytes", "2.3 MB" (decimal units, as file managers show them). */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${count().format(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${short().format(value)} ${units[unit]}`;
}
