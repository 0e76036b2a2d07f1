/**
 * Barcode rules shared by the creator, the Wi-Fi code and their tests: the options bwip-js is given,
 * its errors in plain words, and the Wi-Fi QR payload (the ZXing "WIFI:" format) both ways.
 */

export type EcFamily = 'qr' | 'pdf417' | 'aztec' | 'hanxin';

/** Error-correction choices where a symbology has them (the values BWIPP's eclevel takes). */
export const EC_LEVELS: Record<EcFamily, Array<{ value: string; label: string }>> = {
  qr: [
    { value: 'L', label: 'L (7%)' },
    { value: 'M', label: 'M (15%)' },
    { value: 'Q', label: 'Q (25%)' },
    { value: 'H', label: 'H (30%)' },
  ],
  pdf417: Array.from({ length: 9 }, (_, i) => ({ value: String(i), label: `Level ${i}` })),
  aztec: [5, 10, 23, 33, 50].map((p) => ({ value: String(p), label: `${p}%` })),
  hanxin: ['L1', 'L2', 'L3', 'L4'].map((v) => ({ value: v, label: v })),
};

/** Which error-correction scale a symbology (bwip-js bcid) uses, if any. */
export function ecFamily(bcid: string): EcFamily | undefined {
  if (/^(qrcode|microqrcode|rectangularmicroqrcode|gs1qrcode|gs1dlqrcode|hibcqrcode|swissqrcode)$/.test(bcid)) return 'qr';
  if (/pdf417/.test(bcid) && !/micropdf417/.test(bcid)) return 'pdf417';
  if (/^(azteccode|azteccodecompact|hibcazteccode)$/.test(bcid)) return 'aztec';
  if (bcid === 'hanxin') return 'hanxin';
  return undefined;
}

/** Two-dimensional (matrix or stacked) symbologies: no bar height, no human-readable line below. */
export function isTwoDimensional(bcid: string): boolean {
  return /qr|datamatrix|aztec|pdf417|maxicode|codeone|hanxin|dotcode|ultracode|d3aqr|codablockf|code16k|code49|-cc$/.test(bcid);
}

export class OptionsError extends Error {
  override name = 'OptionsError';
  /** The input the error is about, when there are several (the Wi-Fi code's network name and password). */
  constructor(
    message: string,
    readonly field?: 'ssid' | 'password',
  ) {
    super(message);
  }
}

/**
 * BWIPP options written as text ("includecheck version=8x96 eclevel=H"): words are flags, name=value
 * pairs are values. Names are letters and digits only; nothing else reaches bwip-js.
 */
export function parseOptions(text: string): Record<string, string | boolean> {
  const options: Record<string, string | boolean> = {};
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const match = /^([a-z][a-z0-9]*)(?:=(\S+))?$/i.exec(word);
    if (!match) throw new OptionsError(`"${word}" is not an option: write name or name=value`);
    options[match[1]!] = match[2] ?? true;
  }
  return options;
}

/**
 * bwip-js says "bwipp.ean13badLength#6878: EAN-13 must be 12 or 13 digits": keep the words. For a wrong
 * check digit it only says that it is wrong; given the data, the message says which digit is right.
 */
export function barcodeErrorMessage(error: unknown, data?: string): string {
  const text = error instanceof Error ? error.message : String(error);
  const words =
    text.replace(/^(?:Error: )?bwip(?:p|-js)\.[A-Za-z0-9]+(?:#\d+)?: /, '').trim() || 'The data cannot be encoded in this barcode';
  const scheme = /bwipp\.([A-Za-z0-9]+?)[bB]adCheckDigit\b/.exec(text)?.[1];
  const check = scheme && data !== undefined ? rightCheckDigit(scheme, data) : undefined;
  if (!check) return words;
  const name = /^Incorrect (.+) check digit/.exec(words)?.[1] ?? 'The';
  return `The ${name} check digit should be ${check.right}, not ${check.given} (${check.corrected})`;
}

/** GS1's mod-10 check digit (EAN, UPC, ITF-14, ISBN-13, ISMN): weights 3, 1, 3 ... from the right. */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

/** The mod-11 check character of ISBN-10 (weights 10 ... 2) and ISSN (weights 8 ... 2); 10 is X. */
function mod11CheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * (digits.length + 1 - i);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

/** UPC-E (number system, six digits) written out as the UPC-A it stands for, without the check digit. */
function upcEToUpcA(d: string): string {
  const [ns, a, b, c, e, f, g] = d.split('') as [string, string, string, string, string, string, string];
  if (g <= '2') return `${ns}${a}${b}${g}0000${c}${e}${f}`;
  if (g === '3') return `${ns}${a}${b}${c}00000${e}${f}`;
  if (g === '4') return `${ns}${a}${b}${c}${e}00000${f}`;
  return `${ns}${a}${b}${c}${e}${f}0000${g}`;
}

export interface CheckDigitFix {
  right: string;
  given: string;
  /** The data as typed, with the right check digit. */
  corrected: string;
}

/**
 * The right check digit for the scheme of a BWIPP badCheckDigit error (ean13, ean8, upcA, upcE, itf14,
 * ean14, isbn13, isbn10, ismn, issn) and the data as typed; undefined when the data is not in a shape
 * this can read, or its check digit is right.
 */
export function rightCheckDigit(scheme: string, data: string): CheckDigitFix | undefined {
  // The main number: add-ons follow a space; ISBN, ISMN, ISSN and ITF-14 may be written with hyphens or spaces.
  const main = /^(?:itf14|ean14)$/.test(scheme) ? data.replace(/^\(01\)/, '').replace(/[\s]/g, '') : (data.trim().split(/[\s|]/)[0] ?? '');
  const plain = main
    .replace(/-/g, '')
    .replace(/^M/i, scheme === 'ismn' ? '9790' : 'M')
    .toUpperCase();
  let payload: string;
  let right: string;
  if (scheme === 'isbn10' || scheme === 'issn') {
    if (!/^\d+[\dX]$/.test(plain)) return undefined;
    payload = plain.slice(0, -1);
    right = mod11CheckDigit(payload);
  } else {
    if (!/^\d+$/.test(plain)) return undefined;
    payload = plain.slice(0, -1);
    right = String(gs1CheckDigit(scheme === 'upcE' ? (plain.length === 8 ? upcEToUpcA(payload) : '') : payload));
    if (scheme === 'upcE' && plain.length !== 8) return undefined;
  }
  const given = plain.slice(-1);
  if (given === right) return undefined;
  // The data as typed, with its check character (the last of the main number) replaced.
  const at = /^(?:itf14|ean14)$/.test(scheme) ? data.trimEnd().length - 1 : data.length - data.trimStart().length + main.length - 1;
  return { right, given, corrected: (data.slice(0, at) + right + data.slice(at + 1)).trim() };
}

export type WifiSecurity = 'WPA' | 'SAE' | 'WEP' | 'nopass';

export interface WifiNetwork {
  ssid: string;
  password: string;
  security: WifiSecurity;
  hidden: boolean;
}

/** Backslash before the characters the format reserves: \ ; , " : */
function escapeWifi(value: string): string {
  return value.replace(/([\\;,":])/g, '\\$1');
}

/** A value made only of hex digits could be read as hex: the format says to quote it. */
function quoteIfHex(value: string): string {
  return /^[0-9a-f]+$/i.test(value) && value.length % 2 === 0 ? `"${value}"` : value;
}

export function wifiPayload(network: WifiNetwork): string {
  if (!network.ssid) throw new OptionsError('Enter the network name (SSID)', 'ssid');
  if ([...new TextEncoder().encode(network.ssid)].length > 32) throw new OptionsError('A network name has at most 32 bytes', 'ssid');
  const parts = [`WIFI:T:${network.security}`, `S:${quoteIfHex(escapeWifi(network.ssid))}`];
  if (network.security !== 'nopass') {
    if (!network.password) throw new OptionsError('Enter the password, or choose no password', 'password');
    if (network.security === 'WEP' && !/^(?:.{5}|.{13}|[0-9a-f]{10}|[0-9a-f]{26})$/i.test(network.password)) {
      throw new OptionsError('A WEP key is 5 or 13 characters, or 10 or 26 hex digits', 'password');
    }
    if ((network.security === 'WPA' || network.security === 'SAE') && (network.password.length < 8 || network.password.length > 63)) {
      throw new OptionsError('A WPA password has 8 to 63 characters', 'password');
    }
    parts.push(`P:${quoteIfHex(escapeWifi(network.password))}`);
  }
  if (network.hidden) parts.push('H:true');
  return `${parts.join(';')};;`;
}

/** Reads a WIFI: payload back (for the decoder and the tests). */
export function parseWifi(payload: string): WifiNetwork | undefined {
  if (!payload.startsWith('WIFI:')) return undefined;
  const fields = new Map<string, string>();
  let i = 5;
  while (i < payload.length) {
    const colon = payload.indexOf(':', i);
    if (colon < 0) break;
    const key = payload.slice(i, colon);
    let value = '';
    let j = colon + 1;
    for (; j < payload.length && payload[j] !== ';'; j++) {
      if (payload[j] === '\\' && j + 1 < payload.length) j++;
      value += payload[j];
    }
    const raw = payload.slice(colon + 1, j);
    if (/^"[0-9a-f]*"$/i.test(raw)) value = raw.slice(1, -1);
    fields.set(key, value);
    i = j + 1;
    if (payload[i] === ';') break;
  }
  const security = (fields.get('T') ?? 'nopass') as WifiSecurity;
  return { ssid: fields.get('S') ?? '', password: fields.get('P') ?? '', security, hidden: fields.get('H') === 'true' };
}
