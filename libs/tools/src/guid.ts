import { MAX, NIL, v4, v7, validate, version } from 'uuid';

/**
 * UUIDs (RFC 9562) with the uuid package: random v4 and time-ordered v7 (monotonic within a batch),
 * written in the chosen style, and a reader that tells what a pasted UUID is.
 */

export type UuidVersion = 'v4' | 'v7';

export interface UuidFormat {
  upper?: boolean;
  braces?: boolean;
  hyphens?: boolean;
}

export function formatUuid(uuid: string, format: UuidFormat = {}): string {
  let text = format.hyphens === false ? uuid.replace(/-/g, '') : uuid;
  if (format.upper) text = text.toUpperCase();
  return format.braces ? `{${text}}` : text;
}

export const MAX_COUNT = 10_000;

export function generateUuids(count: number, which: UuidVersion, format: UuidFormat = {}): string[] {
  if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT)
    throw new RangeError(`The count must be a whole number from 1 to ${MAX_COUNT}`);
  // v7 from the package keeps the values of one process strictly increasing, even within a millisecond.
  return Array.from({ length: count }, () => formatUuid(which === 'v7' ? v7() : v4(), format));
}

export interface UuidInfo {
  /** The UUID in canonical form (lowercase, hyphenated). */
  canonical: string;
  version: number;
  /** RFC 9562, NCS, Microsoft or future variant, from the top bits of byte 8. */
  variant: string;
  /** v1, v6 and v7 carry their creation time. */
  time?: Date;
  nil?: boolean;
  max?: boolean;
}

export class UuidError extends Error {
  override name = 'UuidError';
}

const WRAPPED = /^(?:urn:uuid:)?(\{?)([0-9a-f-]+)(\}?)$/i;
const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function variantOf(byte: number): string {
  if ((byte & 0x80) === 0) return 'NCS (reserved)';
  if ((byte & 0xc0) === 0x80) return 'RFC 9562';
  if ((byte & 0xe0) === 0xc0) return 'Microsoft (reserved)';
  return 'Future (reserved)';
}

/** Reads a UUID in any common style (braces, no hyphens, urn:uuid:, any case) and tells what it is. */
export function inspectUuid(text: string): UuidInfo {
  const trimmed = text.trim();
  const match = WRAPPED.exec(trimmed);
  const hex = trimmed.replace(/^urn:uuid:/i, '').replace(/[^0-9a-f]/gi, '');
  if (hex.length !== 32) throw new UuidError(`A UUID has 32 hexadecimal digits; this has ${hex.length}`);
  if (!match || match[1] !== (match[3] ? '{' : '')) {
    throw new UuidError('Not a UUID: write it as 8-4-4-4-12 hexadecimal digits, with or without hyphens and braces');
  }
  if (match[2]!.includes('-') && !CANONICAL.test(match[2]!))
    throw new UuidError('The hyphens are out of place: a UUID is written 8-4-4-4-12');
  const compact = hex.toLowerCase();
  const canonical = `${compact.slice(0, 8)}-${compact.slice(8, 12)}-${compact.slice(12, 16)}-${compact.slice(16, 20)}-${compact.slice(20)}`;
  if (canonical === NIL) return { canonical, version: 0, variant: 'none', nil: true };
  if (canonical === MAX) return { canonical, version: 15, variant: 'none', max: true };
  const info: UuidInfo = {
    canonical,
    version: validate(canonical) ? version(canonical) : parseInt(compact[12]!, 16),
    variant: variantOf(parseInt(compact.slice(16, 18), 16)),
  };
  if (info.version === 7) {
    info.time = new Date(Number(BigInt(`0x${compact.slice(0, 12)}`)));
  } else if (info.version === 1 || info.version === 6) {
    // 60-bit count of 100 ns intervals since 1582-10-15.
    const hex =
      info.version === 1
        ? compact.slice(13, 16) + compact.slice(8, 12) + compact.slice(0, 8)
        : compact.slice(0, 12) + compact.slice(13, 16);
    info.time = new Date(Number((BigInt(`0x${hex}`) - 122_192_928_000_000_000n) / 10_000n));
  }
  return info;
}
