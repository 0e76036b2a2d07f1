import { afterAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { pdfText, rejection } from '@tinkerdesk/testing';
import { ConversionFailure } from './failure.js';
import { OfficeEngine, warmModeAvailable } from './libreoffice.js';

const failureOf = (promise: Promise<unknown>) => rejection(promise, ConversionFailure);

/** Real LibreOffice (Debian's soffice), warm through the UNO bridge, and cold through libreoffice-convert. */
const warm = new OfficeEngine({ mode: 'warm', timeoutMs: 30_000, restartAfter: 3 });
const cold = new OfficeEngine({ mode: 'cold', timeoutMs: 60_000, restartAfter: 1 });

afterAll(async () => {
  await warm.close();
  await cold.close();
});

const text = (s: string) => new TextEncoder().encode(s);

/** A minimal OpenDocument presentation: one slide with a title frame (the mimetype entry first, stored). */
function odp(title: string): Uint8Array {
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" ' +
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" ' +
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"';
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.presentation'), { level: 0 }],
    'META-INF/manifest.xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.presentation"/>' +
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    ),
    'content.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ns} office:version="1.2"><office:body><office:presentation>` +
        `<draw:page draw:name="page1"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm"><draw:text-box>` +
        `<text:p>${title}</text:p></draw:text-box></draw:frame></draw:page></office:presentation></office:body></office:document-content>`,
    ),
  });
}

describe('OfficeEngine, warm', () => {
  it('runs here (Debian python3-uno is installed by the test command)', () => {
    expect(warmModeAvailable()).toBe(true);
  });

  it('converts text to PDF, DOCX and ODT, keeping the words (and restarts soffice after restartAfter documents)', async () => {
    const source = text('Tinkerdesk converts documents.\nSecond line: äöü €.\n');
    const pdf = await warm.convert(source, { kind: 'document', from: 'txt', to: 'pdf' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfText(pdf)).toContain('Second line: äöü €.');
    const docx = await warm.convert(source, { kind: 'document', from: 'txt', to: 'docx' });
    expect(docx.subarray(0, 2).toString()).toBe('PK');
    const back = await warm.convert(docx, { kind: 'document', from: 'docx', to: 'txt' });
    expect(back.toString('utf8')).toContain('Tinkerdesk converts documents.');
    const odt = await warm.convert(docx, { kind: 'document', from: 'docx', to: 'odt' });
    expect(odt.subarray(30, 38).toString()).toBe('mimetype');
  });

  it('converts HTML and RTF to PDF', async () => {
    const html = await warm.convert(text('<!doctype html><h1>Heading</h1><p>Paragraph <b>bold</b></p>'), {
      kind: 'document',
      from: 'html',
      to: 'pdf',
    });
    expect(pdfText(html)).toMatch(/Heading[\s\S]*Paragraph bold/);
    const rtf = await warm.convert(text('{\\rtf1\\ansi Hello {\\b RTF}.\\par}'), { kind: 'document', from: 'rtf', to: 'pdf' });
    expect(pdfText(rtf)).toContain('Hello RTF.');
  });

  it('converts CSV to XLSX and back, and a spreadsheet to PDF', async () => {
    const csv = text('name,amount\nAda,12.5\n"Lovelace, A",7\n');
    const xlsx = await warm.convert(csv, { kind: 'spreadsheet', from: 'csv', to: 'xlsx' });
    expect(xlsx.subarray(0, 2).toString()).toBe('PK');
    const again = await warm.convert(xlsx, { kind: 'spreadsheet', from: 'xlsx', to: 'csv' });
    expect(again.toString('utf8').trim().split(/\r?\n/)).toEqual(['name,amount', 'Ada,12.5', '"Lovelace, A",7']);
    const pdf = await warm.convert(xlsx, { kind: 'spreadsheet', from: 'xlsx', to: 'pdf' });
    expect(pdfText(pdf)).toContain('Lovelace, A');
  });

  it('reads a CSV cell that looks like a formula as text: nothing in a CSV is evaluated (=WEBSERVICE(...) never runs)', async () => {
    const csv = text('a,b\n=1+1,"=WEBSERVICE(""http://127.0.0.1:9/"")"\n');
    const back = await warm.convert(csv, { kind: 'spreadsheet', from: 'csv', to: 'csv' });
    expect(back.toString('utf8').trim().split(/\r?\n/)).toEqual(['a,b', '=1+1,"=WEBSERVICE(""http://127.0.0.1:9/"")"']);
  });

  it('converts a presentation to PPTX and PDF, and that PPTX back to ODP', async () => {
    const source = odp('Quarterly slides from Tinkerdesk');
    const pptx = await warm.convert(source, { kind: 'presentation', from: 'odp', to: 'pptx' });
    expect(pptx.subarray(0, 2).toString()).toBe('PK');
    expect(pdfText(await warm.convert(pptx, { kind: 'presentation', from: 'pptx', to: 'pdf' }))).toContain(
      'Quarterly slides from Tinkerdesk',
    );
    const back = await warm.convert(pptx, { kind: 'presentation', from: 'pptx', to: 'odp' });
    expect(back.subarray(30, 38).toString()).toBe('mimetype');
    expect(pdfText(await warm.convert(source, { kind: 'presentation', from: 'odp', to: 'pdf' }))).toContain('Quarterly slides');
  });

  it('refuses a password-protected document with a clear message, and goes on working', async () => {
    const protectedOdt = readFileSync(new URL('../../test/fixtures/protected.odt', import.meta.url));
    const error = await failureOf(warm.convert(protectedOdt, { kind: 'document', from: 'odt', to: 'pdf' }));
    expect(error.reason).toBe('password');
    expect(error.message).toBe('the document is protected by a password; remove the password and try again');
    const pdf = await warm.convert(text('still here'), { kind: 'document', from: 'txt', to: 'pdf' });
    expect(pdfText(pdf)).toContain('still here');
  });

  it('refuses a corrupt or empty file as unreadable (before LibreOffice sees it)', async () => {
    const corrupt = await failureOf(
      warm.convert(Buffer.from('PK\u0003\u0004 not really a zip'), { kind: 'document', from: 'docx', to: 'pdf' }),
    );
    expect(corrupt.reason).toBe('unreadable');
    const empty = await failureOf(warm.convert(new Uint8Array(0), { kind: 'spreadsheet', from: 'xlsx', to: 'pdf' }));
    expect(empty.reason).toBe('unreadable');
  });

  it('kills a conversion past its deadline and starts afresh for the next document', async () => {
    const hasty = new OfficeEngine({ mode: 'warm', timeoutMs: 1, restartAfter: 10 });
    try {
      const error = await failureOf(hasty.convert(text('a'.repeat(10_000)), { kind: 'document', from: 'txt', to: 'pdf' }));
      expect(error.reason).toBe('timeout');
    } finally {
      await hasty.close();
    }
  });
});

describe('OfficeEngine, cold (libreoffice-convert)', () => {
  it('converts text to PDF', async () => {
    const pdf = await cold.convert(text('cold start'), { kind: 'document', from: 'txt', to: 'pdf' });
    expect(pdfText(pdf)).toContain('cold start');
  });

  it('reads HTML and CSV with the same import filters as warm', async () => {
    expect(pdfText(await cold.convert(text('<p>a fragment of HTML</p>'), { kind: 'document', from: 'html', to: 'pdf' }))).toContain(
      'a fragment of HTML',
    );
    const pdf = await cold.convert(text('a\n=1+1\n'), { kind: 'spreadsheet', from: 'csv', to: 'pdf' });
    expect(pdfText(pdf)).toContain('=1+1');
  });
});
