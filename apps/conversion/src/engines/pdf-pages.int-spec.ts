import { describe, expect, it } from '@jest/globals';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { rejection } from '@tinkerdesk/testing';
import { ConversionFailure } from './failure.js';
import { renderPdfPages } from './pdf-pages.js';

const failureOf = (promise: Promise<unknown>) => rejection(promise, ConversionFailure);

/** A valid PDF of `pages` pages of the given size in points, each with its number drawn as text. */
function makePdf(pages: number, width = 200, height = 100): Buffer {
  const objects: string[] = [];
  const kids = Array.from({ length: pages }, (_, i) => `${4 + i * 2} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let i = 0; i < pages; i++) {
    const stream = `BT /F1 24 Tf 20 40 Td (Page ${i + 1}) Tj ET`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`,
    );
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

describe('renderPdfPages (poppler)', () => {
  it('renders one page to a PNG of the size the resolution gives', async () => {
    const out = await renderPdfPages(makePdf(3), { to: 'png', firstPage: 2, lastPage: 2, dpi: 144, baseName: 'report' });
    expect(out).toMatchObject({ filename: 'report-2.png', mediaType: 'image/png', pages: 1 });
    expect(await sharp(out.data).metadata()).toMatchObject({ format: 'png', width: 400, height: 200 });
  });

  it('renders several pages to a ZIP of JPEGs named by page, in order', async () => {
    const out = await renderPdfPages(makePdf(12), { to: 'jpg', firstPage: 9, dpi: 72, baseName: 'deck' });
    expect(out).toMatchObject({ filename: 'deck-pages-9-12.zip', mediaType: 'application/zip', pages: 4 });
    const files = unzipSync(new Uint8Array(out.data));
    expect(Object.keys(files)).toEqual(['deck-9.jpg', 'deck-10.jpg', 'deck-11.jpg', 'deck-12.jpg']);
    expect((await sharp(files['deck-10.jpg']).metadata()).format).toBe('jpeg');
  });

  it('bounds pages, resolution and pixels before rendering', async () => {
    const bounds = { maxPages: 5, maxPagePixels: 1_000_000, timeoutMs: 30_000 };
    expect((await failureOf(renderPdfPages(makePdf(8), { to: 'png', baseName: 'a' }, bounds))).message).toBe(
      '8 pages were asked for; at most 5 are rendered at once (choose a page range)',
    );
    expect((await failureOf(renderPdfPages(makePdf(1, 2000, 2000), { to: 'png', dpi: 300, baseName: 'a' }, bounds))).reason).toBe(
      'too-large',
    );
    expect((await failureOf(renderPdfPages(makePdf(1), { to: 'png', dpi: 2000, baseName: 'a' }))).message).toBe(
      'dpi must be a whole number from 36 to 600',
    );
    expect((await failureOf(renderPdfPages(makePdf(2), { to: 'png', firstPage: 3, baseName: 'a' }))).message).toBe(
      'the PDF has 2 pages; there is no page 3',
    );
    expect((await failureOf(renderPdfPages(makePdf(2), { to: 'png', firstPage: 2, lastPage: 1, baseName: 'a' }))).reason).toBe(
      'unsupported',
    );
  });

  it('refuses an empty or corrupt file', async () => {
    expect((await failureOf(renderPdfPages(new Uint8Array(0), { to: 'png', baseName: 'a' }))).message).toBe('the file is empty');
    expect((await failureOf(renderPdfPages(Buffer.from('%PDF-1.4 garbage'), { to: 'png', baseName: 'a' }))).reason).toBe('unreadable');
  });
});
