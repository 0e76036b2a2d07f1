import { expect, test } from '@playwright/test';
import { downloaded, watchErrors } from './helpers.js';
import { imagePixels } from './images.js';

// SVG to image through the real UI: sizes, formats, backgrounds, downloads; an SVG that tries to run a
// script and load files from the server gets neither, and says what was taken out; bad input explained.

test('SVG to image: PNG at 1× and 2×, JPG on a background, settings in the URL', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/converters/svg/image/');
  await page.getByRole('button', { name: 'A small logo' }).click();
  const output = page.getByRole('region', { name: 'Output' });
  await expect(output.getByRole('img')).toBeVisible();
  await expect(output).toContainText('240 × 120 px PNG');
  let file = await downloaded(page, 'Download PNG');
  expect(file.name).toBe('image.png');
  let image = await imagePixels(page, file.bytes, [
    [60, 60],
    [1, 1],
    [200, 20],
  ]);
  expect(image).toMatchObject({ width: 240, height: 120 });
  const [sun, corner, sky] = image.pixels;
  expect(sun).toEqual([0xfa, 0xcc, 0x15, 255]); // the yellow circle
  expect(corner![3]).toBe(0); // outside the rounded corner: transparent
  expect(sky![2]).toBeGreaterThan(200); // the blue-cyan gradient

  await page.getByRole('button', { name: '2×' }).click();
  await expect(page.getByLabel('Width (px)')).toHaveValue('480');
  await expect(page.getByLabel('Height (px)')).toHaveValue('240');
  await expect(output).toContainText('480 × 240 px PNG');
  file = await downloaded(page, 'Download PNG');
  image = await imagePixels(page, file.bytes, [[120, 120]]);
  expect(image).toMatchObject({ width: 480, height: 240 });
  expect(image.pixels[0]).toEqual([0xfa, 0xcc, 0x15, 255]);

  // Proportions kept; then a free height.
  await page.getByLabel('Width (px)').fill('100');
  await expect(page.getByLabel('Height (px)')).toHaveValue('50');
  await page.getByLabel('Keep proportions').uncheck();
  await page.getByLabel('Height (px)').fill('100');
  await expect(output).toContainText('100 × 100 px PNG');

  await page.getByLabel('Format').selectOption('jpeg');
  await page.getByLabel('Background').fill('#ff0000');
  await page.getByLabel('Quality').fill('80');
  await expect(page).toHaveURL(/format=jpeg/);
  await expect(page).toHaveURL(/quality=80/);
  await page.getByRole('button', { name: '1×' }).click();
  await expect(output).toContainText('240 × 120 px JPG');
  file = await downloaded(page, 'Download JPG');
  expect(file.name).toBe('image.jpg');
  expect(file.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  image = await imagePixels(page, file.bytes, [[1, 1]]);
  // The transparent corner is the chosen red in a JPG.
  expect(image.pixels[0]![0]).toBeGreaterThan(230);
  expect(image.pixels[0]![1]).toBeLessThan(30);

  await page.getByLabel('Format').selectOption('webp');
  await expect(output).toContainText('px WebP');
  file = await downloaded(page, 'Download WebP');
  expect(file.bytes.subarray(8, 12).toString()).toBe('WEBP');
  expect(errors).toEqual([]);
});

test('SVG to image: a script in the SVG never runs and nothing it references is fetched', async ({ page }) => {
  const errors = watchErrors(page);
  const probes: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('probe')) probes.push(request.url());
  });
  await page.goto('/tools/converters/svg/image/');
  const hostile = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100" onload="fetch('/probe-onload')">
  <script>window.parent.svgScriptRan = true; fetch('/probe-script');</script>
  <style>@import url('/probe-import.css'); circle { fill: url('/probe-fill.svg#p'); }</style>
  <rect width="100" height="100" fill="#0a0"/>
  <image href="/probe-image.png" width="50" height="50"/>
  <image xlink:href="${new URL('/probe-xlink.png', page.url()).href}" x="50" width="50" height="50"/>
  <foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="/probe-frame"></iframe></foreignObject>
</svg>`;
  await page.getByLabel('Choose SVG file').setInputFiles({ name: 'hostile.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(hostile) });
  await expect(page.getByRole('status').filter({ hasText: 'Taken out before drawing' })).toHaveText(
    'Taken out before drawing: 1 script, 1 event handler, 5 external references. Nothing from other sites is loaded and no script runs.',
  );
  const output = page.getByRole('region', { name: 'Output' });
  await expect(output).toContainText('100 × 100 px PNG');
  const file = await downloaded(page, 'Download PNG');
  expect(file.name).toBe('hostile.png');
  expect((await imagePixels(page, file.bytes, [[10, 10]])).pixels[0]).toEqual([0, 0xaa, 0, 255]);
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as unknown as { svgScriptRan?: boolean }).svgScriptRan)).toBeUndefined();
  expect(probes).toEqual([]);
  expect(errors).toEqual([]);
});

test('SVG to image: input that is not SVG is explained', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/converters/svg/image/');
  const input = page.getByLabel('Input', { exact: true });
  await input.fill('hello');
  await expect(page.getByRole('alert')).toHaveText('This is not an SVG image: there is no <svg> element in it.');
  await input.fill('<html><body><svg></svg></body></html>');
  await expect(page.getByRole('alert')).toHaveText('This is not an SVG image: its root element is <html>, not <svg>.');
  await expect(page.getByRole('button', { name: 'Download PNG' })).toBeDisabled();
  await page
    .getByLabel('Choose SVG file')
    .setInputFiles({ name: 'photo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]) });
  await expect(page.getByRole('alert')).toHaveText('This is not an SVG image: there is no <svg> element in it.');
  // A syntax error is placed in what was typed (not in the cleaned markup), without the browser's framing text.
  await input.fill('<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">\n<x:rect/></svg>');
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText(/^This SVG is not well-formed: error on line 2 at column \d+: /);
  const column = Number(/column (\d+)/.exec((await alert.textContent()) ?? '')?.[1]);
  expect(column).toBeLessThanOrEqual('<x:rect/></svg>'.length);
  await expect(alert).not.toContainText('Below is a rendering');
  await input.fill('<svg width="20" height="20"><rect width="20" height="20" fill="#00f"/></svg>');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Output' })).toContainText('20 × 20 px PNG');
  expect(errors).toEqual([]);
});
