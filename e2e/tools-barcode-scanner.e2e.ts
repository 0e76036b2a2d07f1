import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import bwipjs from 'bwip-js/node';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS } from './playwright.config.js';
import { downloaded, watchErrors } from './helpers.js';

// The live scanner against a camera: Chromium's fake capture device plays a Y4M video made here, whose
// frames show real barcodes (a QR code, then an EAN-13). The page must find both through its worker,
// list them once each (held in view, a code counts once), keep them across a reload, and export them.

const WIDTH = 640;
const HEIGHT = 480;
const FPS = 5;

/** One video frame (RGBA) with the barcode PNG centred on white, drawn by the browser's canvas. */
async function frame(page: Page, png: Buffer): Promise<Uint8ClampedArray> {
  const rgba = await page.evaluate(
    async ({ b64, width, height }) => {
      const image = await createImageBitmap(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))]));
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, width, height);
      ctx.drawImage(image, (width - image.width) / 2, (height - image.height) / 2);
      return Array.from(ctx.getImageData(0, 0, width, height).data);
    },
    { b64: png.toString('base64'), width: WIDTH, height: HEIGHT },
  );
  return Uint8ClampedArray.from(rgba);
}

/** RGBA to a Y4M 4:2:0 frame (BT.601 studio range, as Chromium's Y4M reader expects). */
function y4mFrame(rgba: Uint8ClampedArray): Buffer {
  const y = Buffer.alloc(WIDTH * HEIGHT);
  const u = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2));
  const v = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2));
  for (let row = 0; row < HEIGHT; row++) {
    for (let col = 0; col < WIDTH; col++) {
      const i = (row * WIDTH + col) * 4;
      const [r, g, b] = [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!];
      y[row * WIDTH + col] = Math.round(16 + 0.257 * r + 0.504 * g + 0.098 * b);
      if (row % 2 === 0 && col % 2 === 0) {
        const c = (row / 2) * (WIDTH / 2) + col / 2;
        u[c] = Math.round(128 - 0.148 * r - 0.291 * g + 0.439 * b);
        v[c] = Math.round(128 + 0.439 * r - 0.368 * g - 0.071 * b);
      }
    }
  }
  return Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
}

let camera: Browser;

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  const qr = await frame(page, await bwipjs.toBuffer({ bcid: 'qrcode', text: 'https://tinkerdesk.dev/scan-me', scale: 6 } as never));
  const ean = await frame(
    page,
    await bwipjs.toBuffer({ bcid: 'ean13', text: '4006381333931', scale: 3, height: 30, includetext: true } as never),
  );
  await page.close();
  const frames = [...Array<Uint8ClampedArray>(3 * FPS).fill(qr), ...Array<Uint8ClampedArray>(3 * FPS).fill(ean)].map(y4mFrame);
  const dir = await mkdtemp(join(tmpdir(), 'tinkerdesk-camera-'));
  const file = join(dir, 'codes.y4m');
  await writeFile(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F${FPS}:1 Ip A1:1 C420jpeg\n`), ...frames]));
  camera = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${file}`,
    ],
  });
});

test.afterAll(async () => {
  await camera?.close();
});

test('Barcode scanner: reads a QR code and an EAN-13 from the camera, each once, kept across reloads, CSV, clear', async ({ baseURL }) => {
  test.setTimeout(90_000);
  const context = await camera.newContext({ baseURL, permissions: ['camera'] });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto('/tools/barcodes/scanner/');
  await expect(page.getByText('No codes scanned yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Start camera' }).click();
  await expect(page.getByRole('button', { name: 'Stop camera' })).toBeVisible();
  await expect(page.getByLabel('Camera', { exact: true }).locator('option')).not.toHaveCount(0);

  const list = page.getByRole('region', { name: 'Scanned codes' }).getByRole('listitem');
  await expect(list.filter({ hasText: 'https://tinkerdesk.dev/scan-me' })).toHaveCount(1, { timeout: 20_000 });
  await expect(list.filter({ hasText: '4006381333931' })).toHaveCount(1, { timeout: 20_000 });
  await expect(list.filter({ hasText: 'https://tinkerdesk.dev/scan-me' }).getByRole('link', { name: 'Open link' })).toHaveAttribute(
    'href',
    'https://tinkerdesk.dev/scan-me',
  );
  await expect(list.filter({ hasText: '4006381333931' })).toContainText('EAN-13');
  await expect(page.getByRole('status').filter({ hasText: /^Scanned: / })).toBeVisible();
  // The camera keeps seeing them, but each stays one entry while in view.
  await page.waitForTimeout(1500);
  await page.getByRole('button', { name: 'Stop camera' }).click();
  const count = await list.count();
  expect(count).toBeGreaterThanOrEqual(2);
  expect(count).toBeLessThanOrEqual(4);

  // Kept in this browser's history.
  await page.reload();
  await expect(list).toHaveCount(count);
  const csv = await downloaded(page, 'Download CSV');
  expect(csv.name).toBe('scanned-codes.csv');
  expect(csv.bytes.toString()).toMatch(/^time,format,text,bytes\r\n/);
  expect(csv.bytes.toString()).toContain(',EAN-13,4006381333931,');

  await list.first().getByRole('button', { name: 'Remove' }).click();
  await expect(list).toHaveCount(count - 1);
  await page.getByRole('button', { name: 'Clear list' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Clear list' }).click();
  await expect(page.getByText('No codes scanned yet.')).toBeVisible();
  expect(errors).toEqual([]);
  await context.close();
});

test('Barcode scanner: a refused camera gets a clear message', async ({ page, context }) => {
  const errors = watchErrors(page);
  await context.clearPermissions();
  await page.goto('/tools/barcodes/scanner/');
  await page.getByRole('button', { name: 'Start camera' }).click();
  await expect(page.getByRole('alert')).toHaveText(/^(Camera access was refused|No camera was found)/);
  await expect(page.getByRole('button', { name: 'Start camera' })).toBeVisible();
  expect(errors).toEqual([]);
});
