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

/** bwip-js says "bwipp.ean13badLength#6878: EAN-13 must be 12 or 13 digits": keep the words. */
export function barcodeErrorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^(?:Error: )?bwip(?:p|-js)\.[A-Za-z0-9]+(?:#\d+)?: /, '').trim() || 'The data cannot be encoded in this barcode';
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
