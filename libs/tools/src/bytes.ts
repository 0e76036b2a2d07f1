/**
 * Sizes in bytes ⇄ human-readable text, exact for any integer (BigInt), in both unit systems:
 * decimal SI units (kB = 1000 bytes, MB, GB ... EB) and binary IEC units (KiB = 1024 bytes, MiB ... EiB).
 */

export interface Unit {
  symbol: string;
  name: string;
  factor: bigint;
}

const names = ['kilo', 'mega', 'giga', 'tera', 'peta', 'exa'];
const binaryNames = ['kibi', 'mebi', 'gibi', 'tebi', 'pebi', 'exbi'];

export const DECIMAL_UNITS: readonly Unit[] = ['kB', 'MB', 'GB', 'TB', 'PB', 'EB'].map((symbol, i) => ({
  symbol,
  name: `${names[i]}bytes`,
  factor: 1000n ** BigInt(i + 1),
}));

export const BINARY_UNITS: readonly Unit[] = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'].map((symbol, i) => ({
  symbol,
  name: `${binaryNames[i]}bytes`,
  factor: 1024n ** BigInt(i + 1),
}));

const BYTE: Unit = { symbol: 'B', name: 'bytes', factor: 1n };

export class BytesError extends Error {
  override name = 'BytesError';
}

/** a / b rounded half up to `digits` decimals, as text without trailing zeros ("1.5", "2", "0.001"). */
export function divide(a: bigint, b: bigint, digits: number): string {
  const negative = a < 0n;
  const abs = negative ? -a : a;
  const scale = 10n ** BigInt(digits);
  const scaled = (abs * scale * 2n + b) / (b * 2n); // half up
  const whole = scaled / scale;
  let fraction = (scaled % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  if (digits === 0) fraction = '';
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The largest unit of the system that the size reaches (bytes below the first unit). */
export function bestUnit(bytes: bigint, system: 'decimal' | 'binary'): Unit {
  const units = system === 'decimal' ? DECIMAL_UNITS : BINARY_UNITS;
  const abs = bytes < 0n ? -bytes : bytes;
  let best = BYTE;
  for (const unit of units) if (abs >= unit.factor) best = unit;
  return best;
}

/** "1.5 GB", "1.4 GiB": the size in the best unit of the system, rounded to `digits` decimals. */
export function formatBytes(bytes: bigint, system: 'decimal' | 'binary', digits = 2): string {
  const unit = bestUnit(bytes, system);
  // Rounding can reach the next unit (999.999 kB → 1000 kB): then say it in that unit.
  const units = system === 'decimal' ? DECIMAL_UNITS : BINARY_UNITS;
  let chosen = unit;
  const text = divide(bytes, unit.factor, digits);
  const next = units[units.indexOf(unit) + 1] ?? (unit === BYTE ? units[0] : undefined);
  if (next && unit !== BYTE && Math.abs(Number(text)) >= Number(next.factor / unit.factor)) chosen = next;
  if (chosen === BYTE) return `${bytes} ${bytes === 1n || bytes === -1n ? 'byte' : 'bytes'}`;
  return `${divide(bytes, chosen.factor, digits)} ${chosen.symbol}`;
}

/** Every unit with the size in it, exact to `digits` decimals. */
export function allUnits(bytes: bigint, digits = 6): Array<{ unit: Unit; value: string }> {
  return [...DECIMAL_UNITS, ...BINARY_UNITS].map((unit) => ({ unit, value: divide(bytes, unit.factor, digits) }));
}

const SYMBOLS = new Map<string, Unit>();
for (const unit of [BYTE, ...DECIMAL_UNITS, ...BINARY_UNITS]) {
  SYMBOLS.set(unit.symbol.toLowerCase(), unit);
  SYMBOLS.set(unit.name, unit);
  SYMBOLS.set(unit.name.replace(/s$/, ''), unit);
}
for (const [alias, symbol] of [
  ['b', 'B'],
  ['byte', 'B'],
  ['bytes', 'B'],
  ['k', 'kB'],
  ['kb', 'kB'],
  ['m', 'MB'],
  ['g', 'GB'],
  ['t', 'TB'],
  ['p', 'PB'],
  ['e', 'EB'],
  ['ki', 'KiB'],
  ['mi', 'MiB'],
  ['gi', 'GiB'],
  ['ti', 'TiB'],
  ['pi', 'PiB'],
  ['ei', 'EiB'],
] as const) {
  SYMBOLS.set(
    alias,
    [BYTE, ...DECIMAL_UNITS, ...BINARY_UNITS].find((u) => u.symbol === symbol)!,
  );
}

export interface ParsedSize {
  /** The exact number of bytes (rounded half up when the text asks for a fraction of a byte). */
  bytes: bigint;
  unit: Unit;
  /** True when a fraction of a byte was rounded away. */
  rounded: boolean;
}

/**
 * "1.5 GB", "2 MiB", "1,024 kB", "3e6 B", "512" (bytes), "1.5 gigabytes": the size in bytes, exact.
 * Units are case-insensitive; "KB" is read as the decimal kilobyte (1000 bytes), as the SI symbol says.
 */
export function parseBytes(text: string): ParsedSize {
  const match = /^\s*([+-]?)\s*((?:\d{1,3}(?:[,_ ]\d{3})+|\d+)?(?:\.\d+)?)(?:e([+-]?\d+))?\s*([a-z]*)\s*$/i.exec(text);
  if (!text.trim()) throw new BytesError('Enter a size, for example 1.5 GB or 2 MiB');
  if (!match || !match[2] || match[2] === '.')
    throw new BytesError(`"${text.trim()}" is not a size: write a number and a unit, for example 1.5 GB or 2 MiB`);
  const [, sign, number, exponent, symbol] = match;
  const unit = symbol ? SYMBOLS.get(symbol.toLowerCase()) : BYTE;
  if (!unit) throw new BytesError(`Unknown unit "${symbol}": use B, kB, MB, GB, TB, PB, EB or KiB, MiB, GiB, TiB, PiB, EiB`);
  const [whole, fraction = ''] = number!.replace(/[,_ ]/g, '').split('.');
  let mantissa = BigInt((whole || '0') + fraction);
  let scale = 10n ** BigInt(fraction.length);
  const exp = Number(exponent ?? 0);
  if (Math.abs(exp) > 100) throw new BytesError('The exponent is too large');
  if (exp > 0) mantissa *= 10n ** BigInt(exp);
  else if (exp < 0) scale *= 10n ** BigInt(-exp);
  const numerator = mantissa * unit.factor;
  const bytes = (numerator * 2n + scale) / (scale * 2n);
  return { bytes: sign === '-' ? -bytes : bytes, unit, rounded: numerator % scale !== 0n };
}
