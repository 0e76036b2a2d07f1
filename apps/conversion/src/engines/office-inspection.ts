import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ConversionFailure } from './failure.js';

/**
 * What is checked before LibreOffice sees an office file: not empty; a ZIP-based format (docx, xlsx,
 * pptx, odt, ods, odp) is a ZIP whose entries, once decompressed, stay under the bounds (entry count,
 * total size, and every entry's real size equal to what its header says: yauzl checks that while
 * inflating, so a header that lies cannot smuggle a bomb past the count); and a document protected
 * by a password is named as such (LibreOffice only answers "cannot load").
 */

export interface OfficeBounds {
  /** Decompressed bytes of all entries together. */
  maxUnpackedBytes: number;
  maxEntries: number;
}

export const DEFAULT_OFFICE_BOUNDS: OfficeBounds = { maxUnpackedBytes: 256 * 1024 * 1024, maxEntries: 10_000 };

const ZIP_FORMATS = new Set(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp']);
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** The stream an encrypted OOXML file keeps its package in (MS-OFFCRYPTO), in UTF-16LE as OLE names it. */
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

const PASSWORD = 'the document is protected by a password; remove the password and try again';

function openZip(bytes: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (error, zip) =>
      error || !zip ? reject(error ?? new Error('no zip')) : resolve(zip),
    ),
  );
}

function readEntry(zip: ZipFile, entry: Entry, budget: { left: number }, keep: boolean): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(error ?? new Error('no stream'));
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        budget.left -= chunk.length;
        if (budget.left < 0) {
          stream.destroy(new ConversionFailure('too-large', 'the file unpacks to more than this service converts (a ZIP bomb?)'));
          return;
        }
        if (keep) chunks.push(chunk);
      });
      stream.on('error', reject);
      stream.on('end', () => resolve(keep ? Buffer.concat(chunks) : undefined));
    });
  });
}

async function inspectZip(bytes: Buffer, from: string, bounds: OfficeBounds): Promise<void> {
  let zip: ZipFile;
  try {
    zip = await openZip(bytes);
  } catch {
    throw new ConversionFailure('unreadable', `the file is not a ${from} file (it is not a valid ZIP package)`);
  }
  if (zip.entryCount > bounds.maxEntries) {
    zip.close();
    throw new ConversionFailure(
      'too-large',
      `the file holds ${zip.entryCount} parts, more than the ${bounds.maxEntries} this service converts`,
    );
  }
  const budget = { left: bounds.maxUnpackedBytes };
  let encrypted = false;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: Entry) => {
        if (entry.uncompressedSize > budget.left) {
          reject(new ConversionFailure('too-large', 'the file unpacks to more than this service converts (a ZIP bomb?)'));
          return;
        }
        if (/\/$/.test(entry.fileName)) return zip.readEntry();
        const manifest = entry.fileName === 'META-INF/manifest.xml';
        readEntry(zip, entry, budget, manifest).then((content) => {
          if (manifest && content && content.includes('encryption-data')) encrypted = true;
          zip.readEntry();
        }, reject);
      });
      zip.readEntry();
    });
  } catch (error) {
    if (error instanceof ConversionFailure) throw error;
    throw new ConversionFailure(
      'unreadable',
      `the file is not a valid ${from} file (${error instanceof Error ? error.message : 'damaged ZIP package'})`,
    );
  } finally {
    zip.close();
  }
  if (encrypted) throw new ConversionFailure('password', PASSWORD);
}

/** Throws a ConversionFailure when the file must not (or cannot) go to LibreOffice. */
export async function inspectOfficeFile(input: Uint8Array, from: string, bounds: OfficeBounds = DEFAULT_OFFICE_BOUNDS): Promise<void> {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (bytes.length === 0) throw new ConversionFailure('unreadable', 'the file is empty');
  if (!ZIP_FORMATS.has(from)) return;
  // An encrypted docx/xlsx/pptx is not a ZIP at all but an OLE container holding the encrypted package.
  if (bytes.subarray(0, 8).equals(OLE_MAGIC)) {
    if (from.endsWith('x') && bytes.includes(ENCRYPTED_PACKAGE)) throw new ConversionFailure('password', PASSWORD);
    throw new ConversionFailure('unreadable', `the file is not a ${from} file (it is an older Office format; save it as ${from} again)`);
  }
  await inspectZip(bytes, from, bounds);
}
