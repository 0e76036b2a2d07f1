import { Base64Decoder, Base64Encoder, type Base64Alphabet } from '@tinkerdesk/tools/base64';
import { detectFileKind, looksLikeText, SNIFF_BYTES, type FileKind } from '@tinkerdesk/tools/file-kind';

/**
 * The Base64 jobs of the encode and decode pages. A file (any size) is read in chunks, so memory stays
 * flat apart from the result, which is built as a Blob; progress is reported per chunk. Large inputs
 * run them in base64.worker.ts; small ones on the page, for an instant answer.
 */
export type Base64Job =
  | { op: 'encode'; source: Blob | string; alphabet: Base64Alphabet; padding: boolean; lineLength: number }
  | { op: 'decode'; source: Blob | string; alphabet: Base64Alphabet | 'auto' };

export interface EncodeResult {
  op: 'encode';
  blob: Blob;
  inputBytes: number;
  length: number;
  /** The whole text when it is small enough to show, else its beginning. */
  preview: string;
  complete: boolean;
}

export interface DecodeResult {
  op: 'decode';
  blob: Blob;
  size: number;
  kind: FileKind;
  /** The decoded text when it is UTF-8 text of a size worth showing. */
  text?: string;
  /** The first bytes (for the hex view and image previews). */
  head: Uint8Array;
  alphabet?: Base64Alphabet;
}

/** Results up to this many characters are shown whole; beyond, the beginning is shown. */
export const SHOW_WHOLE = 1_000_000;
const PREVIEW = 100_000;
/** Bytes read per step: a multiple of 3, so chunks encode without carrying. */
const ENCODE_CHUNK = 3 * 1024 * 1024 * 2;
const DECODE_CHUNK = 8 * 1024 * 1024;

const latin1 = new TextDecoder('latin1');

export async function encodeJob(job: Extract<Base64Job, { op: 'encode' }>, progress: (f: number) => void): Promise<EncodeResult> {
  const source = typeof job.source === 'string' ? new Blob([job.source]) : job.source;
  const encoder = new Base64Encoder(job);
  const parts: string[] = [];
  let length = 0;
  let preview = '';
  const keep = (text: string) => {
    if (text.length === 0) return;
    parts.push(text);
    length += text.length;
    if (preview.length < SHOW_WHOLE) preview += text.slice(0, SHOW_WHOLE - preview.length);
  };
  for (let offset = 0; offset < source.size; offset += ENCODE_CHUNK) {
    const chunk = new Uint8Array(await source.slice(offset, offset + ENCODE_CHUNK).arrayBuffer());
    keep(encoder.push(chunk));
    progress(Math.min(1, (offset + chunk.length) / source.size));
  }
  keep(encoder.flush());
  const complete = length <= SHOW_WHOLE;
  return {
    op: 'encode',
    blob: new Blob(parts, { type: 'text/plain' }),
    inputBytes: source.size,
    length,
    preview: complete ? preview : preview.slice(0, PREVIEW),
    complete,
  };
}

export async function decodeJob(job: Extract<Base64Job, { op: 'decode' }>, progress: (f: number) => void): Promise<DecodeResult> {
  const decoder = new Base64Decoder({ alphabet: job.alphabet });
  const parts: Uint8Array[] = [];
  let size = 0;
  const keep = (bytes: Uint8Array) => {
    if (bytes.length === 0) return;
    parts.push(bytes);
    size += bytes.length;
  };
  if (typeof job.source === 'string') {
    // Strings go in slices too, so progress moves on a long paste.
    const text = job.source;
    for (let offset = 0; offset < text.length; offset += DECODE_CHUNK) {
      keep(decoder.push(text.slice(offset, offset + DECODE_CHUNK)));
      progress(Math.min(1, (offset + DECODE_CHUNK) / text.length));
    }
  } else {
    for (let offset = 0; offset < job.source.size; offset += DECODE_CHUNK) {
      const chunk = new Uint8Array(await job.source.slice(offset, offset + DECODE_CHUNK).arrayBuffer());
      keep(decoder.push(latin1.decode(chunk)));
      progress(Math.min(1, (offset + chunk.length) / job.source.size));
    }
  }
  keep(decoder.finish());
  const blob = new Blob(parts as BlobPart[]);
  const head = new Uint8Array(await blob.slice(0, SNIFF_BYTES).arrayBuffer());
  const kind = await detectFileKind(head, size <= SNIFF_BYTES);
  let text: string | undefined;
  if (kind.text && size <= SHOW_WHOLE * 4) {
    const bytes = new Uint8Array(await blob.arrayBuffer());
    if (looksLikeText(bytes)) text = new TextDecoder().decode(bytes);
  }
  return { op: 'decode', blob: new Blob([blob], { type: kind.mime }), size, kind, text, head, alphabet: decoder.detectedAlphabet };
}

export function runBase64Job(job: Base64Job, progress: (fraction: number) => void): Promise<EncodeResult | DecodeResult> {
  return job.op === 'encode' ? encodeJob(job, progress) : decodeJob(job, progress);
}
