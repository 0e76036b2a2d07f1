import { describe, expect, it } from '@jest/globals';
import { zipSync } from 'fflate';
import { ConversionFailure } from './failure.js';
import { inspectOfficeFile } from './office-inspection.js';

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConversionFailure) return `${error.reason}: ${error.message}`;
    throw error;
  }
  return 'accepted';
}

const bounds = { maxUnpackedBytes: 1024 * 1024, maxEntries: 50 };
const docx = (files: Record<string, Uint8Array>) => zipSync(files, { level: 9 });

describe('inspectOfficeFile', () => {
  it('accepts a small, well-formed package and leaves formats that are not ZIPs to LibreOffice', async () => {
    const ok = docx({
      '[Content_Types].xml': new TextEncoder().encode('<Types/>'),
      'word/document.xml': new TextEncoder().encode('<w:document/>'),
    });
    expect(await reason(inspectOfficeFile(ok, 'docx', bounds))).toBe('accepted');
    expect(await reason(inspectOfficeFile(new TextEncoder().encode('{\\rtf1 hi}'), 'rtf', bounds))).toBe('accepted');
  });

  it('refuses an empty file', async () => {
    expect(await reason(inspectOfficeFile(new Uint8Array(0), 'txt', bounds))).toBe('unreadable: the file is empty');
  });

  it('refuses a ZIP bomb: an entry that inflates past the bound', async () => {
    const bomb = docx({ 'word/document.xml': new Uint8Array(8 * 1024 * 1024) }); // 8 MiB of zeros, about 8 KB packed
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await reason(inspectOfficeFile(bomb, 'docx', bounds))).toMatch(/^too-large: the file unpacks to more than/);
  });

  it('refuses many small entries that add up past the bound, and too many entries', async () => {
    const parts = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`xl/part${i}.xml`, new Uint8Array(64 * 1024)]));
    expect(await reason(inspectOfficeFile(docx(parts), 'xlsx', bounds))).toMatch(/^too-large/);
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`p${i}`, new Uint8Array(1)]));
    expect(await reason(inspectOfficeFile(docx(many), 'pptx', bounds))).toBe(
      'too-large: the file holds 60 parts, more than the 50 this service converts',
    );
  });

  it('refuses an entry whose header understates its size (yauzl checks the real size while inflating)', async () => {
    const zip = docx({ 'content.xml': new Uint8Array(200 * 1024) });
    // Lower the uncompressed size in the central directory entry (offset 24 of its header) and the local header (offset 22).
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    const central = zip.findIndex((_, i) => view.getUint32(i, true) === 0x02014b50);
    view.setUint32(central + 24, 10, true);
    view.setUint32(22, 10, true);
    expect(await reason(inspectOfficeFile(zip, 'odt', bounds))).toMatch(/^unreadable: the file is not a valid odt file/);
  });

  it('names a password-protected ODF document (encryption in its manifest)', async () => {
    const manifest = new TextEncoder().encode(
      '<manifest:manifest><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/></manifest:file-entry></manifest:manifest>',
    );
    const odt = docx({ mimetype: new TextEncoder().encode('application/vnd.oasis.opendocument.text'), 'META-INF/manifest.xml': manifest });
    expect(await reason(inspectOfficeFile(odt, 'odt', bounds))).toBe(
      'password: the document is protected by a password; remove the password and try again',
    );
  });

  it('names an encrypted OOXML file (an OLE container with an EncryptedPackage stream), and an old binary file called docx', async () => {
    const ole = (extra: Buffer) => Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(500), extra]);
    expect(await reason(inspectOfficeFile(ole(Buffer.from('EncryptedPackage', 'utf16le')), 'docx', bounds))).toMatch(/^password:/);
    expect(await reason(inspectOfficeFile(ole(Buffer.from('WordDocument', 'utf16le')), 'docx', bounds))).toMatch(
      /^unreadable: .*older Office format/,
    );
  });

  it('refuses what is not a ZIP at all', async () => {
    expect(await reason(inspectOfficeFile(new TextEncoder().encode('PK\u0003\u0004 nope'), 'xlsx', bounds))).toMatch(
      /^unreadable: the file is not a xlsx file/,
    );
  });
});
