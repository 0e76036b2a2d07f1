import { expect, test, type Page } from '@playwright/test';
import bwipjs from 'bwip-js/node';
import { ZXING_READS } from '../libs/tools/src/barcode-interop.js';
import { formatLabel } from '../libs/tools/src/barcode-read.js';
import { clipboardText, downloaded, watchErrors } from './helpers.js';

// The barcode decoder through the real UI: pictures with several codes, their outlines drawn, text
// copied and listed as CSV; pictures without codes and files that are no pictures; and the round trip
// of every symbology the creator draws that ZXing reads.

function png(bcid: string, text: string, extra: Record<string, unknown> = {}): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid, text, scale: 4, paddingwidth: 8, paddingheight: 8, backgroundcolor: 'FFFFFF', ...extra } as never);
}

/** Several PNGs side by side on one white picture, drawn by the browser (the page's own canvas). */
async function collage(page: Page, parts: Buffer[]): Promise<Buffer> {
  const b64 = await page.evaluate(
    async (sources: string[]) => {
      const images = await Promise.all(sources.map((s) => createImageBitmap(new Blob([Uint8Array.from(atob(s), (c) => c.charCodeAt(0))]))));
      const gap = 60;
      const canvas = document.createElement('canvas');
      canvas.width = images.reduce((w, i) => w + i.width + gap, gap);
      canvas.height = Math.max(...images.map((i) => i.height)) + 2 * gap;
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      let x = gap;
      for (const image of images) {
        ctx.drawImage(image, x, gap);
        x += image.width + gap;
      }
      return canvas.toDataURL('image/png').split(',')[1]!;
    },
    parts.map((p) => p.toString('base64')),
  );
  return Buffer.from(b64, 'base64');
}

function pick(page: Page, name: string, buffer: Buffer, mimeType = 'image/png') {
  return page.getByLabel('Choose image').setInputFiles({ name, mimeType, buffer });
}

test('Barcode decoder: several codes in one picture, numbered outlines, copy, open link, CSV; no code; not a picture', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = watchErrors(page);
  await page.goto('/tools/barcodes/decoder/');
  const picture = await collage(page, [
    await png('qrcode', 'https://example.com/tickets?id=42'),
    await png('ean13', '4006381333931', { includetext: true }),
    await png('datamatrix', 'Ünïcode ✓ 1234'),
  ]);
  await pick(page, 'shelf.png', picture);
  const results = page.getByRole('region', { name: 'Results' });
  await expect(results.getByRole('status')).toHaveText('Found 3 codes');
  const cards = results.getByRole('listitem');
  await expect(cards).toHaveCount(3);
  const read = await cards.evaluateAll((items) =>
    items.map((i) => ({ format: i.querySelector('.code-format')!.textContent, text: i.querySelector('.code-text')!.textContent })),
  );
  expect(read).toEqual(
    expect.arrayContaining([
      { format: 'QR Code', text: 'https://example.com/tickets?id=42' },
      { format: 'EAN-13', text: '4006381333931' },
      { format: 'Data Matrix', text: 'Ünïcode ✓ 1234' },
    ]),
  );
  // Each code is outlined and numbered on the picture.
  await expect(page.getByRole('img', { name: 'Positions of 3 codes found' }).locator('polygon')).toHaveCount(3);
  const first = await page.locator('.decoder-overlay polygon').first().getAttribute('points');
  expect(first!.split(' ')).toHaveLength(4);

  const qr = cards.filter({ hasText: 'https://example.com' });
  await expect(qr.getByRole('link', { name: 'Open link' })).toHaveAttribute('href', 'https://example.com/tickets?id=42');
  await expect(cards.filter({ hasText: '4006381333931' }).getByRole('link')).toHaveCount(0);
  await qr.getByRole('button', { name: 'Copy text' }).click();
  await expect.poll(() => clipboardText(page)).toBe('https://example.com/tickets?id=42');
  const csv = await downloaded(page, 'Download CSV');
  expect(csv.name).toBe('shelf-barcodes.csv');
  expect(csv.bytes.toString()).toContain('QR Code,https://example.com/tickets?id=42,');
  expect(csv.bytes.toString().split('\r\n')[0]).toBe('format,text,bytes');

  // Try harder is on by default and kept in the link.
  await page.getByLabel(/^Try harder/).uncheck();
  await expect(page).toHaveURL(/harder=0/);
  await page.getByLabel(/^Try harder/).check();

  // A picture without a code, and a file that is no picture.
  const blank = await collage(page, [await png('qrcode', 'x')]);
  await pick(page, 'blank.png', await blankPng(page));
  await expect(results.getByRole('status')).toHaveText(/^No barcode found in this picture/);
  await pick(page, 'notes.png', Buffer.from('these are notes, not a picture'));
  await expect(page.getByRole('alert')).toHaveText(
    'This file is not an image the browser can read. Use a PNG, JPEG, WebP, GIF, BMP or SVG picture.',
  );
  // Pasting a picture works like dropping one.
  await page.evaluate(async (b64) => {
    const data = new DataTransfer();
    data.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'pasted.png', { type: 'image/png' }));
    document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
  }, blank.toString('base64'));
  await expect(results.getByRole('status')).toHaveText('Found 1 code');
  await expect(results.locator('.code-text')).toHaveText('x');
  expect(errors).toEqual([]);
});

async function blankPng(page: Page): Promise<Buffer> {
  const b64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 400;
    canvas.height = 300;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#f0f4f8';
    ctx.fillRect(0, 0, 400, 300);
    ctx.fillStyle = '#333';
    ctx.font = '24px sans-serif';
    ctx.fillText('No barcode here', 100, 150);
    return canvas.toDataURL('image/png').split(',')[1]!;
  });
  return Buffer.from(b64, 'base64');
}

test('Round trip: every symbology the creator draws that ZXing reads comes back from the decoder with its text', async ({
  page,
  context,
}) => {
  test.setTimeout(300_000);
  const errors = watchErrors(page);
  const decoder = await context.newPage();
  const decoderErrors = watchErrors(decoder);
  await page.goto('/tools/displaybarcode/');
  await decoder.goto('/tools/barcodes/decoder/');
  const failed: string[] = [];
  for (const [bcid, expected] of Object.entries(ZXING_READS)) {
    await page.getByLabel('Type').selectOption(bcid);
    const data = await page.getByLabel('Input', { exact: true }).inputValue();
    const drawn = await downloaded(page, 'Download PNG');
    await pick(decoder, `${bcid}.png`, drawn.bytes);
    await expect(decoder.locator('figcaption')).toContainText(`${bcid}.png`);
    const status = decoder.getByRole('region', { name: 'Results' }).getByRole('status');
    await expect(status).toHaveText(/^(Found|No barcode)/);
    const read = await decoder
      .locator('.code-card')
      .evaluateAll((items) =>
        items.map((i) => ({ format: i.querySelector('.code-format')!.textContent, text: i.querySelector('.code-text')!.textContent })),
      );
    const want = { format: formatLabel(expected.format), text: expected.text ?? data };
    if (JSON.stringify(read) !== JSON.stringify([want]))
      failed.push(`${bcid}: wanted ${JSON.stringify(want)}, read ${JSON.stringify(read)}`);
  }
  expect(failed).toEqual([]);
  expect([...errors, ...decoderErrors]).toEqual([]);
});

test("Barcode decoder reads the creator's own Download SVG, drawn safely (no script in an SVG runs)", async ({ page, context }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  const decoder = await context.newPage();
  const decoderErrors = watchErrors(decoder);
  await page.goto('/tools/displaybarcode/');
  await decoder.goto('/tools/barcodes/decoder/');
  for (const bcid of ['qrcode', 'ean13', 'code128', 'datamatrix', 'pdf417', 'azteccode']) {
    await page.getByLabel('Type').selectOption(bcid);
    const data = await page.getByLabel('Input', { exact: true }).inputValue();
    const drawn = await downloaded(page, 'Download SVG');
    expect(drawn.name).toMatch(/\.svg$/);
    await pick(decoder, `${bcid}.svg`, drawn.bytes, 'image/svg+xml');
    await expect(decoder.locator('figcaption')).toContainText(`${bcid}.svg`);
    await expect(decoder.getByRole('region', { name: 'Results' }).getByRole('status')).toHaveText(/^Found 1 /);
    await expect(decoder.locator('.code-card .code-text')).toHaveText(ZXING_READS[bcid]?.text ?? data);
  }
  // A hostile SVG: its script never runs, nothing is fetched, and it is simply a picture without a code.
  const requests: string[] = [];
  decoder.on('request', (r) => requests.push(r.url()));
  const hostile = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" onload="window.pwned=1"><script>window.pwned=2</script>' +
      '<image href="https://example.com/probe.png" width="10" height="10"/><rect width="200" height="100" fill="#eee"/></svg>',
  );
  await pick(decoder, 'hostile.svg', hostile, 'image/svg+xml');
  await expect(decoder.getByRole('region', { name: 'Results' }).getByRole('status')).toHaveText(/^No barcode/);
  expect(await decoder.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  expect(requests.filter((u) => u.includes('probe'))).toEqual([]);
  // A file called .svg that holds no SVG is explained.
  await pick(decoder, 'notes.svg', Buffer.from('just some notes'), 'image/svg+xml');
  await expect(decoder.getByRole('alert')).toHaveText('This is not an SVG image: there is no <svg> element in it.');
  expect([...errors, ...decoderErrors]).toEqual([]);
});
