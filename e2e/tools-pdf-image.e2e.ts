import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bwipjs from 'bwip-js/node';
import { unzipSync } from 'fflate';
import { downloaded, watchErrors } from './helpers.js';
import { imageData, pixelDifference, readPpm } from './images.js';
import { samplePdf } from './pdfs.js';

// PDF to image through the real UI (pdf.js in its worker), checked against poppler's pdftoppm rendering
// of the same PDF; page ranges, resolutions, JPG, the ZIP of all pages, a password-protected PDF and
// broken files.

const pdf = samplePdf();

function pick(page: Page, name: string, buffer: Buffer) {
  return page.getByLabel('Choose PDF').setInputFiles({ name, mimeType: 'application/pdf', buffer });
}

/** pdftoppm's rendering of one page at a resolution, as RGBA. */
function poppler(pageNumber: number, dpi: number) {
  const dir = mkdtempSync(join(tmpdir(), 'tinkerdesk-pdftoppm-'));
  writeFileSync(join(dir, 'in.pdf'), pdf);
  execFileSync('pdftoppm', [
    '-r',
    String(dpi),
    '-f',
    String(pageNumber),
    '-l',
    String(pageNumber),
    '-singlefile',
    join(dir, 'in.pdf'),
    join(dir, 'out'),
  ]);
  return readPpm(readFileSync(join(dir, 'out.ppm')));
}

test('PDF to image: every page drawn like pdftoppm draws it, page range, DPI, JPG, ZIP of all pages', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await page.goto('/tools/converters/pdf/image/?dpi=72');
  await pick(page, 'sample.pdf', pdf);
  const results = page.getByRole('region', { name: 'Rendered pages' });
  await expect(results.getByRole('heading')).toHaveText('sample.pdf · 3 pages');
  await expect(results.getByRole('img')).toHaveCount(3);
  await expect(results.getByRole('listitem').nth(0)).toContainText('Page 1 · 612 × 792 px');
  await expect(results.getByRole('listitem').nth(1)).toContainText('Page 2 · 842 × 595 px');

  // Each page downloads from a labelled button under its preview, also once later pages were added.
  await expect(results.getByRole('button', { name: /^Download page \d$/ })).toHaveText([
    'Download page 1',
    'Download page 2',
    'Download page 3',
  ]);
  const [one] = await Promise.all([page.waitForEvent('download'), results.getByRole('button', { name: 'Download page 1' }).click()]);
  expect(one.suggestedFilename()).toBe('sample-1.png');
  expect((await readFile((await one.path())!)).subarray(1, 4).toString()).toBe('PNG');

  // All pages in one ZIP, named like pdftoppm names them; each within a small difference of poppler's.
  const zip = await downloaded(page, 'Download all (ZIP)');
  expect(zip.name).toBe('sample-png.zip');
  const files = unzipSync(new Uint8Array(zip.bytes));
  expect(Object.keys(files)).toEqual(['sample-1.png', 'sample-2.png', 'sample-3.png']);
  for (const [i, name] of ['sample-1.png', 'sample-2.png', 'sample-3.png'].entries()) {
    const ours = await imageData(page, Buffer.from(files[name]!));
    const theirs = poppler(i + 1, 72);
    expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
    const diff = pixelDifference(ours, theirs);
    // Anti-aliasing and the substitutes for Helvetica and Times differ a little; shapes and colours do not.
    expect(diff.mean).toBeLessThan(3);
    expect(diff.farOff).toBeLessThan(0.02);
  }

  // One page, at print resolution, as JPG.
  await page.getByLabel('Pages', { exact: true }).fill('2');
  await page.getByLabel('Resolution (DPI)').selectOption('150');
  await page.getByLabel('Format').selectOption('jpeg');
  await page.getByLabel('JPG quality').fill('80');
  await page.getByRole('button', { name: 'Convert' }).click();
  await expect(results.getByRole('img')).toHaveCount(1);
  await expect(results.getByRole('listitem')).toContainText('Page 2 · 1754 × 1240 px');
  await expect(page).toHaveURL(/format=jpeg/);
  await expect(page).not.toHaveURL(/dpi=/); // 150 DPI is the default
  const jpg = await downloaded(page, 'Download JPG');
  expect(jpg.name).toBe('sample-2.jpg');
  expect(jpg.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  const ours = await imageData(page, jpg.bytes);
  const theirs = poppler(2, 150);
  // 842 pt at 150 DPI is 1754.2 px: pdf.js rounds, pdftoppm rounds up; the common area is compared.
  expect(Math.abs(ours.width - theirs.width)).toBeLessThanOrEqual(1);
  const diff = pixelDifference(ours, theirs);
  expect(diff.mean).toBeLessThan(3);
  expect(diff.farOff).toBeLessThan(0.02);

  // A range that does not fit the document is explained.
  await page.getByLabel('Pages', { exact: true }).fill('2-9');
  await page.getByRole('button', { name: 'Convert' }).click();
  await expect(page.getByRole('alert')).toHaveText('There is no page 9: this PDF has 3 pages.');
  expect(errors).toEqual([]);
});

test('PDF to image: a password-protected PDF asks for its password; broken files are explained', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/converters/pdf/image/?dpi=72');
  await pick(page, 'locked.pdf', readFileSync(new URL('./fixtures/locked.pdf', import.meta.url)));
  await expect(page.getByText('This PDF is protected by a password.')).toBeVisible();
  await page.getByLabel('PDF password').fill('wrong');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('alert')).toHaveText('That password is not right. Try again.');
  await page.getByLabel('PDF password').fill('open sesame');
  await page.getByRole('button', { name: 'Open' }).click();
  const results = page.getByRole('region', { name: 'Rendered pages' });
  await expect(results.getByRole('img')).toHaveCount(3);

  // Cancelling the password prompt.
  await pick(page, 'locked.pdf', readFileSync(new URL('./fixtures/locked.pdf', import.meta.url)));
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('alert')).toHaveText('The PDF was not opened: it needs its password.');

  await pick(page, 'cut.pdf', pdf.subarray(0, 300));
  await expect(page.getByRole('alert')).toHaveText('This file is not a PDF or it is damaged beyond repair.');
  await pick(page, 'notes.pdf', Buffer.from('just some text, not a PDF'));
  await expect(page.getByRole('alert')).toHaveText('This file is not a PDF or it is damaged beyond repair.');
  await expect(results).toHaveCount(0);
  expect(errors).toEqual([]);
});

test.describe('offline', () => {
  // The suite blocks the service worker (playwright.config.ts): offline use is its work.
  test.use({ serviceWorkers: 'allow' });

  test('Offline after one visit: PDF to image (pdf.js worker, fonts, character maps) and the barcode decoder (ZXing WebAssembly)', async ({
    page,
    context,
  }) => {
    test.setTimeout(90_000);
    const errors = watchErrors(page);
    await page.goto('/tools/');
    await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    // Precaching runs in the background; wait until the PDF engine's files are in the cache.
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const names = await caches.keys();
            const urls = (await Promise.all(names.map(async (n) => (await (await caches.open(n)).keys()).map((r) => r.url)))).flat();
            return ['pdf.worker', 'zxing_reader', '/pdfjs/standard_fonts/LiberationSans-Bold.ttf'].every((part) =>
              urls.some((u) => u.includes(part)),
            );
          }),
        { timeout: 30_000 },
      )
      .toBe(true);

    await context.setOffline(true);
    await page.goto('/tools/converters/pdf/image/?dpi=72');
    await pick(page, 'sample.pdf', pdf);
    await expect(page.getByRole('region', { name: 'Rendered pages' }).getByRole('img')).toHaveCount(3);
    await page.goto('/tools/barcodes/decoder/');
    const qr = await bwipjs.toBuffer({
      bcid: 'qrcode',
      text: 'offline works',
      scale: 4,
      paddingwidth: 8,
      paddingheight: 8,
      backgroundcolor: 'FFFFFF',
    } as never);
    await page.getByLabel('Choose image').setInputFiles({ name: 'qr.png', mimeType: 'image/png', buffer: qr });
    await expect(page.getByRole('region', { name: 'Results' }).locator('.code-text')).toHaveText('offline works');
    await context.setOffline(false);
    expect(errors).toEqual([]);
  });
});
