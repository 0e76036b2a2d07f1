import { Base64Error, decodeBase64, encodeBase64 } from './base64.js';
import { extensionOf, safeFileName } from './file-kind.js';

/**
 * data: URIs (RFC 2397, read the way browsers do: the WHATWG Fetch "data: URL processor"), with
 * clear errors for what does not parse, and building them from bytes in Base64 or percent-encoding.
 */

export interface DataUri {
  /** The media type with its parameters except name (default text/plain;charset=US-ASCII, as browsers read it). */
  mediaType: string;
  /** The bare type/subtype, lower case. */
  essence: string;
  charset?: string;
  /** A file name given as a name= or filename= parameter (not standard, but common). */
  name?: string;
  base64: boolean;
  bytes: Uint8Array;
}

export class DataUriError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataUriError';
  }
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function percentDecode(text: string): Uint8Array {
  const utf8 = new TextEncoder().encode(text);
  const out = new Uint8Array(utf8.length);
  let o = 0;
  const hex = (b: number) => (b >= 48 && b <= 57) || (b >= 65 && b <= 70) || (b >= 97 && b <= 102);
  for (let i = 0; i < utf8.length; i++) {
    const b = utf8[i]!;
    if (b === 37 && i + 2 < utf8.length && hex(utf8[i + 1]!) && hex(utf8[i + 2]!)) {
      out[o++] = parseInt(String.fromCharCode(utf8[i + 1]!, utf8[i + 2]!), 16);
      i += 2;
    } else out[o++] = b;
  }
  return out.subarray(0, o);
}

/** Parses a data: URI; throws DataUriError with a message fit for the user. */
export function parseDataUri(input: string): DataUri {
  const uri = input.trim();
  if (uri === '') throw new DataUriError('Paste a data URI: it starts with “data:”.');
  if (!/^data:/i.test(uri)) {
    throw new DataUriError(
      `A data URI starts with “data:”; this one starts with “${[...uri].slice(0, 12).join('')}${uri.length > 12 ? '…' : ''}”.`,
    );
  }
  const comma = uri.indexOf(',');
  if (comma < 0) throw new DataUriError('The data URI has no comma: “data:[media type][;base64],data” needs one before the data.');
  let header = uri.slice(5, comma).trim();
  let base64 = false;
  const base64Suffix = /;\s*base64\s*$/i.exec(header);
  if (base64Suffix) {
    base64 = true;
    header = header.slice(0, base64Suffix.index);
  }
  if (header.startsWith(';')) header = `text/plain${header}`;

  const [type = '', ...params] = header.split(';');
  let essence = type.trim().toLowerCase();
  const parameters: [string, string][] = [];
  let charset: string | undefined;
  let name: string | undefined;
  for (const raw of params) {
    const eq = raw.indexOf('=');
    if (eq < 0) continue;
    const key = raw.slice(0, eq).trim().toLowerCase();
    let value = raw.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (key === 'name' || key === 'filename') {
      try {
        name = decodeURIComponent(value);
      } catch {
        name = value;
      }
      continue;
    }
    if (!TOKEN.test(key)) continue;
    if (key === 'charset') charset = value;
    parameters.push([key, value]);
  }
  const [top, sub] = essence.split('/');
  if (!top || !sub || !TOKEN.test(top) || !TOKEN.test(sub)) {
    // Browsers fall back to text/plain when the media type does not parse.
    essence = 'text/plain';
    parameters.length = 0;
    parameters.push(['charset', 'US-ASCII']);
    charset = 'US-ASCII';
  }
  const mediaType = [essence, ...parameters.map(([k, v]) => `${k}=${v}`)].join(';');

  const body = uri.slice(comma + 1);
  let bytes = percentDecode(body);
  if (base64) {
    const encoded = new TextDecoder('latin1').decode(bytes);
    try {
      bytes = decodeBase64(encoded);
    } catch (error) {
      if (!(error instanceof Base64Error)) throw error;
      // Without percent-escapes the data maps one to one onto the URI, so the position can be given in it.
      const where = body.includes('%')
        ? `at position ${error.index + 1} of the data`
        : `at position ${comma + 2 + error.index + (input.length - input.trimStart().length)} of the URI`;
      throw new DataUriError(`The Base64 data is not valid: ${error.reason} ${where}.`);
    }
  }
  return { mediaType, essence, charset, name, base64, bytes };
}

/** A file name for the data: its name parameter, else a name from its media type ('image.png', 'file.pdf'). */
export function dataUriFileName(data: Pick<DataUri, 'name' | 'essence'>, detectedExt?: string): string {
  if (data.name) return safeFileName(data.name);
  const ext = (data.essence === 'application/octet-stream' && detectedExt) || extensionOf(data.essence) || detectedExt || 'bin';
  const base = data.essence.startsWith('image/')
    ? 'image'
    : data.essence.startsWith('text/')
      ? 'text'
      : data.essence.startsWith('audio/')
        ? 'audio'
        : data.essence.startsWith('video/')
          ? 'video'
          : 'file';
  return `${base}.${ext}`;
}

// Characters that stay as they are in percent-encoded data: unreserved ones and the common safe punctuation.
const KEEP = /[A-Za-z0-9\-._~!$&'()*+,;=:@/?]/;

/** Builds a data: URI. Percent-encoding suits text (smaller, readable); Base64 suits everything. */
export function buildDataUri(bytes: Uint8Array, mediaType: string, encoding: 'base64' | 'percent' = 'base64'): string {
  const type = mediaType.trim() || 'application/octet-stream';
  if (encoding === 'base64') return `data:${type};base64,${encodeBase64(bytes)}`;
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const c = String.fromCharCode(bytes[i]!);
    out += bytes[i]! < 128 && KEEP.test(c) ? c : `%${bytes[i]!.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `data:${type},${out}`;
}
