/**
 * Passwords from the Web Crypto random source, without modulo bias (rejection sampling), from the
 * chosen character sets, optionally without look-alike characters, with at least one character of
 * each chosen set. Works in browsers, workers and Node (globalThis.crypto).
 */

export const CHARACTER_SETS = {
  lower: 'abcdefghijklmnopqrstuvwxyz',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  digits: '0123456789',
  symbols: '!#$%&()*+,-./:;<=>?@[]^_{|}~',
} as const;

export type CharacterSet = keyof typeof CHARACTER_SETS;

/** Characters easily mistaken for one another in many fonts. */
export const LOOK_ALIKES = 'Il1|O0o';

export interface PasswordOptions {
  length: number;
  sets: CharacterSet[];
  excludeLookAlikes?: boolean;
  /** At least one character from each chosen set (default true). */
  eachSet?: boolean;
}

export class PasswordError extends Error {
  override name = 'PasswordError';
}

export const MIN_LENGTH = 4;
export const MAX_LENGTH = 1024;
/** The most passwords made at once. */
export const MAX_COUNT = 500;

/**
 * What is wrong with a number typed into a field (undefined when it is a whole number from min to max),
 * naming the limit it passes: "The length can be at most 1024". Nothing is clamped silently.
 */
export function wholeNumberProblem(text: string, min: number, max: number, what: string): string | undefined {
  const trimmed = text.trim();
  if (!/^[-+]?\d+$/.test(trimmed)) return `The ${what} must be a whole number from ${min} to ${max}`;
  const n = Number(trimmed);
  if (n > max) return `The ${what} can be at most ${max}`;
  if (n < min) return `The ${what} must be at least ${min}`;
  return undefined;
}

/** The alphabet of each chosen set, after the exclusions. */
export function alphabets(options: Pick<PasswordOptions, 'sets' | 'excludeLookAlikes'>): string[] {
  return options.sets.map((set) => [...CHARACTER_SETS[set]].filter((c) => !options.excludeLookAlikes || !LOOK_ALIKES.includes(c)).join(''));
}

/** A uniformly random integer in [0, n) with no modulo bias: 32-bit draws above the last whole multiple of n are rejected. */
export type RandomSource = (buffer: Uint32Array<ArrayBuffer>) => Uint32Array<ArrayBuffer>;

const cryptoRandom: RandomSource = (buffer) => crypto.getRandomValues(buffer);

export function randomBelow(n: number, random: RandomSource = cryptoRandom): number {
  if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError('n must be an integer from 1 to 2^32');
  const limit = 2 ** 32 - (2 ** 32 % n);
  const buffer = new Uint32Array(1);
  for (;;) {
    const value = random(buffer)[0]!;
    if (value < limit) return value % n;
  }
}

/**
 * Entropy in bits of a password from these options: log2 of the number of possible passwords (with
 * "each set", the passwords missing a set are not possible, counted by inclusion–exclusion).
 */
export function entropyBits(options: PasswordOptions): number {
  const sizes = alphabets(options).map((a) => a.length);
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total === 0) return 0;
  if (!(options.eachSet ?? true) || sizes.length === 1) return options.length * Math.log2(total);
  // Count passwords using every set: sum over subsets S of the sets of (-1)^|S| (total - size(S))^length.
  // In log space relative to total^length, so it stays finite for long passwords.
  let fraction = 0;
  for (let mask = 0; mask < 1 << sizes.length; mask++) {
    let removed = 0;
    let bits = 0;
    for (let i = 0; i < sizes.length; i++) {
      if (mask & (1 << i)) {
        removed += sizes[i]!;
        bits++;
      }
    }
    fraction += (bits % 2 ? -1 : 1) * ((total - removed) / total) ** options.length;
  }
  return options.length * Math.log2(total) + Math.log2(Math.max(fraction, Number.MIN_VALUE));
}

export function generatePassword(options: PasswordOptions, random?: RandomSource): string {
  const { length } = options;
  if (!Number.isInteger(length) || length < MIN_LENGTH || length > MAX_LENGTH) {
    throw new PasswordError(`The length must be a whole number from ${MIN_LENGTH} to ${MAX_LENGTH}`);
  }
  const sets = alphabets(options).filter((a) => a.length > 0);
  if (sets.length === 0) throw new PasswordError('Choose at least one character set');
  const eachSet = options.eachSet ?? true;
  if (eachSet && sets.length > length)
    throw new PasswordError(`A password of ${length} characters cannot hold one of each of ${sets.length} sets`);
  const all = sets.join('');
  // Draw every character from the whole alphabet; when a chosen set is missing, draw again. Rejecting
  // whole passwords keeps every allowed password equally likely (placing one of each set at random
  // positions first would not).
  for (;;) {
    let password = '';
    for (let i = 0; i < length; i++) password += all[randomBelow(all.length, random)]!;
    if (!eachSet || sets.every((set) => [...set].some((c) => password.includes(c)))) return password;
  }
}
