import mime from 'mime/lite';

/** What a run of bytes is, for naming a download: media type, file extension, and whether it is text. */
export interface FileKind {
  mime: string;
  ext: string;
  /** True when the bytes are valid UTF-8 without control characters (other than tab, CR, LF, FF). */
  text: boolean;
}

/** How many leading bytes detectFileKind looks at (file-type needs about 4 kB for its deepest checks). */
export const SNIFF_BYTES = 4100;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** True when the bytes decode as UTF-8 text (a sequence cut at the end of a sample is allowed). */
export function looksLikeText(bytes: Uint8Array, sample = false): boolean {
  let end = bytes.length;
  if (sample) {
    // A multi-byte character may be cut at the end of a sample: drop an unfinished one.
    let back = 0;
    while (back < 3 && end - back - 1 >= 0 && (bytes[end - back - 1]! & 0xc0) === 0x80) back++;
    const lead = end - back - 1;
    if (lead >= 0) {
      const b = bytes[lead]!;
      const need = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : 0;
      if (need > back) end = lead;
    }
  }
  let text: string;
  try {
    text = strictUtf8.decode(bytes.subarray(0, end));
  } catch {
    return false;
  }
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

/** Looks at the first bytes (up to SNIFF_BYTES) of a file: magic numbers first, then text formats. */
export async function detectFileKind(head: Uint8Array, complete = head.length < SNIFF_BYTES): Promise<FileKind> {
  // file-type's table of magic numbers is most of this module's weight: pages load it when a file
  // is first looked at, not when they open.
  const { fileTypeFromBuffer } = await import('file-type/core');
  const found = await fileTypeFromBuffer(head);
  // file-type calls anything starting with <?xml XML; SVG is told apart below.
  if (found && found.ext !== 'xml') return { mime: found.mime, ext: found.ext, text: false };
  if (!looksLikeText(head, !complete)) return { mime: 'application/octet-stream', ext: 'bin', text: false };
  const start = new TextDecoder()
    .decode(head.subarray(0, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(start))
    return { mime: 'image/svg+xml', ext: 'svg', text: true };
  if (/^<!DOCTYPE html|^<html[\s>]/i.test(start)) return { mime: 'text/html', ext: 'html', text: true };
  if (/^<\?xml/.test(start)) return { mime: 'application/xml', ext: 'xml', text: true };
  if (/^%PDF-/.test(start)) return { mime: 'application/pdf', ext: 'pdf', text: false };
  if (/^[[{]/.test(start) && complete) {
    try {
      JSON.parse(new TextDecoder().decode(head));
      return { mime: 'application/json', ext: 'json', text: true };
    } catch {
      // not JSON: plain text
    }
  }
  return { mime: 'text/plain', ext: 'txt', text: true };
}

/** The usual extension of a media type ('image/png' → 'png'), or undefined when there is none. */
export function extensionOf(mediaType: string): string | undefined {
  const essence = mediaType.split(';')[0]!.trim().toLowerCase();
  if (essence === 'text/plain') return 'txt';
  if (essence === 'image/jpeg') return 'jpg';
  return mime.getExtension(essence) ?? undefined;
}

/** The media type for a file name's extension, or undefined. */
export function mediaTypeOf(fileName: string): string | undefined {
  return mime.getType(fileName) ?? undefined;
}

/** A file name that is safe on every system: no path parts, no reserved characters, not too long. */
export function safeFileName(name: string, fallback = 'file'): string {
  const base = name
    .split(/[\\/]/)
    .pop()!
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 120);
  return base || fallback;
}
