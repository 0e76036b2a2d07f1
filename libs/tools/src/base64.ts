/**
 * Base64 (RFC 4648, sections 4 and 5): the standard alphabet (+ /) and the URL- and file-name-safe
 * one (- _). Encoding and decoding both stream, so files of any size go through in fixed-size chunks,
 * and the decoder says exactly where the input goes wrong (index, line and column).
 *
 * Decoding is forgiving where that is harmless: whitespace anywhere is skipped, padding may be
 * missing, and 'auto' accepts either alphabet (but not both in one input).
 */

export type Base64Alphabet = 'standard' | 'url';

export interface EncodeOptions {
  alphabet?: Base64Alphabet;
  /** Add '=' padding to a full 4-character group (default true; RFC 4648 section 3.2). */
  padding?: boolean;
  /** Break the output into lines of this many characters (76 for MIME, 64 for PEM); 0 for one line. */
  lineLength?: number;
}

export interface DecodeOptions {
  /** 'auto' (default) takes whichever alphabet the input uses. */
  alphabet?: Base64Alphabet | 'auto';
}

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** 12-bit lookup tables: two output characters per table read. */
const pairTables = new Map<Base64Alphabet, Uint16Array>();
function pairTable(alphabet: Base64Alphabet): Uint16Array {
  let table = pairTables.get(alphabet);
  if (!table) {
    const chars = alphabet === 'url' ? URL_SAFE : STANDARD;
    // The table is read as 16-bit words over the output bytes, so the first character goes in the low byte
    // on little-endian machines and the high byte on big-endian ones.
    const littleEndian = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
    table = new Uint16Array(4096);
    for (let i = 0; i < 4096; i++) {
      const first = chars.charCodeAt(i >> 6);
      const second = chars.charCodeAt(i & 63);
      table[i] = littleEndian ? first | (second << 8) : (first << 8) | second;
    }
    pairTables.set(alphabet, table);
  }
  return table;
}

const latin1 = new TextDecoder('latin1');

/** Encodes whole bytes; the result is padded unless options.padding is false. */
export function encodeBase64(bytes: Uint8Array, options: EncodeOptions = {}): string {
  const encoder = new Base64Encoder(options);
  return encoder.push(bytes) + encoder.flush();
}

/**
 * Streaming encoder: push() chunks of any size, then flush() once. Up to two bytes are carried from
 * one chunk to the next, so the output is exactly that of encoding the whole input at once.
 */
export class Base64Encoder {
  private readonly table: Uint16Array;
  private readonly chars: string;
  private readonly padding: boolean;
  private readonly lineLength: number;
  private carry = new Uint8Array(0);
  /** Characters already written on the current output line. */
  private column = 0;

  constructor(options: EncodeOptions = {}) {
    const alphabet = options.alphabet ?? 'standard';
    this.table = pairTable(alphabet);
    this.chars = alphabet === 'url' ? URL_SAFE : STANDARD;
    this.padding = options.padding ?? true;
    this.lineLength = Math.max(0, Math.floor(options.lineLength ?? 0));
  }

  push(chunk: Uint8Array): string {
    let bytes = chunk;
    if (this.carry.length > 0) {
      bytes = new Uint8Array(this.carry.length + chunk.length);
      bytes.set(this.carry);
      bytes.set(chunk, this.carry.length);
    }
    const whole = bytes.length - (bytes.length % 3);
    this.carry = bytes.slice(whole);
    return this.wrap(this.encodeGroups(bytes, whole));
  }

  /** The last one or two bytes, with padding if asked for. */
  flush(): string {
    const rest = this.carry;
    this.carry = new Uint8Array(0);
    if (rest.length === 0) return '';
    const a = rest[0]!;
    const b = rest.length > 1 ? rest[1]! : 0;
    let text = this.chars[a >> 2]! + this.chars[((a & 3) << 4) | (b >> 4)]!;
    text += rest.length > 1 ? this.chars[(b & 15) << 2]! : '';
    if (this.padding) text += rest.length > 1 ? '=' : '==';
    return this.wrap(text);
  }

  private encodeGroups(bytes: Uint8Array, end: number): string {
    if (end === 0) return '';
    const native = nativeEncode(bytes.subarray(0, end), this.chars === URL_SAFE ? 'base64url' : 'base64');
    if (native !== undefined) return native;
    // Four characters (two table reads) per three bytes, written as bytes and turned into a string once.
    const out = new Uint8Array((end / 3) * 4);
    const table = this.table;
    const view = new Uint16Array(out.buffer);
    let o = 0;
    for (let i = 0; i < end; i += 3) {
      const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
      view[o++] = table[n >> 12]!;
      view[o++] = table[n & 4095]!;
    }
    return latin1.decode(out);
  }

  private wrap(text: string): string {
    const width = this.lineLength;
    if (width === 0 || text.length === 0) return text;
    const lines: string[] = [];
    let i = 0;
    let line = '';
    while (i < text.length) {
      if (this.column === width) {
        lines.push(line);
        line = '';
        this.column = 0;
      }
      const take = Math.min(width - this.column, text.length - i);
      line += text.slice(i, i + take);
      this.column += take;
      i += take;
    }
    lines.push(line);
    return lines.join('\n');
  }
}

type NativeUint8Array = Uint8Array & { toBase64?: (options: { alphabet: 'base64' | 'base64url' }) => string };

/** Uses Uint8Array.prototype.toBase64 (ES2026) where the engine has it: it is several times faster. */
function nativeEncode(bytes: Uint8Array, alphabet: 'base64' | 'base64url'): string | undefined {
  const native = bytes as NativeUint8Array;
  return typeof native.toBase64 === 'function' ? native.toBase64({ alphabet }) : undefined;
}

/** Where and why decoding failed. index counts UTF-16 units from the start of the whole input. */
export class Base64Error extends Error {
  constructor(
    readonly reason: string,
    readonly index: number,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} at position ${index + 1} (line ${line}, column ${column}).`);
    this.name = 'Base64Error';
  }
}

// Character classes for the decoder: 0..63 values, then the special kinds.
const WHITESPACE = 64;
const PAD = 65;
const INVALID = 66;
const STANDARD_ONLY = 1 << 8; // + and /
const URL_ONLY = 1 << 9; // - and _
const decodeTable = (() => {
  const table = new Uint16Array(256).fill(INVALID);
  for (let i = 0; i < 64; i++) {
    table[STANDARD.charCodeAt(i)] = i;
    table[URL_SAFE.charCodeAt(i)] = i;
  }
  table[43] = 62 | STANDARD_ONLY; // +
  table[47] = 63 | STANDARD_ONLY; // /
  table[45] = 62 | URL_ONLY; // -
  table[95] = 63 | URL_ONLY; // _
  for (const c of [9, 10, 12, 13, 32]) table[c] = WHITESPACE; // tab, LF, FF, CR, space
  table[61] = PAD; // =
  return table;
})();

function describe(char: string): string {
  const code = char.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code <= 0xa0)) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `'${char}'`;
}

/** Decodes a whole string; throws Base64Error. */
export function decodeBase64(text: string, options: DecodeOptions = {}): Uint8Array {
  const decoder = new Base64Decoder(options);
  const head = decoder.push(text);
  const tail = decoder.finish();
  if (tail.length === 0) return head;
  const all = new Uint8Array(head.length + tail.length);
  all.set(head);
  all.set(tail, head.length);
  return all;
}

/**
 * Streaming decoder: push() text chunks split anywhere, then finish() once. Bytes come out as soon as
 * a 4-character group is complete; errors carry the position in the whole input.
 */
export class Base64Decoder {
  private alphabet: Base64Alphabet | 'auto';
  /** Sextets of the group in progress, how many, and how many '=' have been read. */
  private group = 0;
  private count = 0;
  private padding = 0;
  /** Absolute index of the next chunk's first character; line number and where that line starts. */
  private chunkStart = 0;
  private line = 1;
  private lineStart = 0;
  private lastCR = -2;
  /** Where the unfinished group started (for the error about a single leftover character). */
  private groupIndex = 0;
  private groupLine = 1;
  private groupLineStart = 0;

  constructor(options: DecodeOptions = {}) {
    this.alphabet = options.alphabet ?? 'auto';
  }

  /** The alphabet seen so far (or the one asked for); undefined while an 'auto' input has used neither +/ nor -_. */
  get detectedAlphabet(): Base64Alphabet | undefined {
    return this.alphabet === 'auto' ? undefined : this.alphabet;
  }

  push(text: string): Uint8Array {
    const out = new Uint8Array(Math.floor(((this.count + text.length) * 3) / 4) + 3);
    let o = 0;
    let group = this.group;
    let count = this.count;
    const base = this.chunkStart;
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const code = text.charCodeAt(i);
      let kind = code < 256 ? decodeTable[code]! : INVALID;
      if (kind >= 64 || this.padding > 0) {
        // The rare characters: whitespace, padding, + / - _, and everything invalid.
        const at = base + i;
        if (kind === WHITESPACE) {
          if (code === 13 || (code === 10 && this.lastCR !== at - 1)) this.line++;
          if (code === 13) this.lastCR = at;
          if (code === 10 || code === 13) this.lineStart = at + 1;
          continue;
        }
        if (kind === PAD) {
          if (count < 2 && this.padding === 0) throw this.error("Unexpected padding '='", at);
          if (count < 2 || (count === 3 && this.padding > 0) || this.padding > 1) throw this.error("Too much padding '='", at);
          this.padding++;
          continue;
        }
        const char = String.fromCodePoint(text.codePointAt(i)!);
        if (this.padding > 0) throw this.error(`Unexpected character ${describe(char)} after the padding`, at);
        if (kind === INVALID) throw this.error(`Invalid character ${describe(char)}`, at);
        const wanted: Base64Alphabet = kind & STANDARD_ONLY ? 'standard' : 'url';
        if (this.alphabet === 'auto') this.alphabet = wanted;
        else if (this.alphabet !== wanted) {
          throw this.error(
            `Character ${describe(char)} is from the ${wanted === 'url' ? 'URL-safe (-_)' : 'standard (+/)'} alphabet, but the input uses the ${this.alphabet === 'url' ? 'URL-safe (-_)' : 'standard (+/)'} one`,
            at,
          );
        }
        kind &= 63;
      }
      if (count === 0) {
        this.groupIndex = base + i;
        this.groupLine = this.line;
        this.groupLineStart = this.lineStart;
      }
      group = (group << 6) | kind;
      if (++count === 4) {
        out[o++] = group >> 16;
        out[o++] = (group >> 8) & 255;
        out[o++] = group & 255;
        group = 0;
        count = 0;
      }
    }
    this.chunkStart = base + n;
    this.group = group;
    this.count = count;
    return out.subarray(0, o);
  }

  /** Ends the input: a trailing group of 2 or 3 characters gives 1 or 2 bytes; 1 character is an error. */
  finish(): Uint8Array {
    const { group, count } = this;
    this.group = 0;
    this.count = 0;
    if (count === 0) return new Uint8Array(0);
    if (count === 1) {
      throw new Base64Error(
        'The input ends with a single leftover character (a group needs at least 2)',
        this.groupIndex,
        this.groupLine,
        this.groupIndex - this.groupLineStart + 1,
      );
    }
    if (count === 2) return Uint8Array.of(group >> 4);
    return Uint8Array.of(group >> 10, (group >> 2) & 255);
  }

  private error(reason: string, at: number): Base64Error {
    return new Base64Error(reason, at, this.line, at - this.lineStart + 1);
  }
}

/**
 * Whether the text is a JSON Web Token (RFC 7519, compact form): Base64url parts joined by dots, the
 * first a JSON header ("eyJ" is how '{"' starts in Base64). Each part decodes on its own; the dots do not.
 */
export function looksLikeJwt(text: string): boolean {
  return /^\s*eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*){0,2}\s*$/.test(text);
}
