import { looksLikeText, SNIFF_BYTES } from '@tinkerdesk/tools/file-kind';
import { formatSize } from './format';

/** A text file that cannot be opened, with the reason in words for the page. */
export class TextFileError extends Error {
  override name = 'TextFileError';
}

/**
 * Reads a dropped or chosen file as UTF-8 text (a byte order mark is dropped). A file that is not text
 * (a picture, a zip ...) or is larger than maxBytes is refused with a message naming the file.
 */
export async function readTextFile(file: File, maxBytes = 64 * 1024 * 1024): Promise<string> {
  const name = file.name || 'The file';
  if (file.size > maxBytes)
    throw new TextFileError(`${name} is ${formatSize(file.size)}; this tool opens text files up to ${formatSize(maxBytes)}.`);
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  if (!looksLikeText(head, file.size > head.length)) throw new TextFileError(`${name} is not a text file (it holds binary data).`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new TextFileError(`${name} is not valid UTF-8 text.`);
  }
}
