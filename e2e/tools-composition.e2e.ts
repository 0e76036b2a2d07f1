import { expect, test, type Page } from '@playwright/test';
import { downloaded, watchErrors } from './helpers.js';
import { dragOnCanvas, imageData } from './images.js';

// Image compositions through the real UI: a 2 × 2 grid with spacing and rounded corners, swapping two
// pictures by dragging, cropping inside a cell, a free layout, JPG and transparent PNG exports.

const W = 800;
const H = 600;

/** Solid pictures (or two-coloured halves), as PNG files made by the page's canvas. */
async function picture(page: Page, width: number, height: number, left: string, right = left): Promise<Buffer> {
  const b64 = await page.evaluate(
    ({ width, height, left, right }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = left;
      ctx.fillRect(0, 0, width / 2, height);
      ctx.fillStyle = right;
      ctx.fillRect(width / 2, 0, width / 2, height);
      return canvas.toDataURL('image/png').split(',')[1]!;
    },
    { width, height, left, right },
  );
  return Buffer.from(b64, 'base64');
}

function drag(page: Page, from: [number, number], to: [number, number]) {
  return dragOnCanvas(page, page.getByRole('img', { name: /^The composition/ }), [W, H], from, to);
}

async function exported(page: Page, button: string) {
  const file = await downloaded(page, button);
  const image = await imageData(page, file.bytes);
  const px = (x: number, y: number) => [...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4)];
  return { file, image, px };
}

test('Image composition: grid with spacing and corners, swap by dragging, crop in a cell, free layout, JPG and transparent PNG', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const errors = watchErrors(page);
  await page.goto('/compositions/new/');
  await page.getByLabel('Width (px)').fill(String(W));
  await page.getByLabel('Height (px)').fill(String(H));
  await page.getByLabel('Spacing (px)').fill('20');
  await page.getByLabel('Corner radius (px)').fill('30');
  await expect(page).toHaveURL(/width=800/);
  await page.getByLabel('Choose images').setInputFiles([
    { name: 'split.png', mimeType: 'image/png', buffer: await picture(page, 400, 100, '#000000', '#ffff00') },
    { name: 'green.png', mimeType: 'image/png', buffer: await picture(page, 200, 300, '#00ff00') },
    { name: 'blue.png', mimeType: 'image/png', buffer: await picture(page, 200, 200, '#0000ff') },
    { name: 'red.png', mimeType: 'image/png', buffer: await picture(page, 300, 200, '#ff0000') },
  ]);
  await expect(page.getByRole('img', { name: 'The composition: 4 pictures, 800 × 600 px' })).toBeVisible();

  // Cells of 370 × 270 at (20, 20), (410, 20), (20, 310), (410, 310).
  let out = await exported(page, 'Download PNG');
  expect(out.file.name).toBe('composition.png');
  expect([out.image.width, out.image.height]).toEqual([W, H]);
  expect(out.px(595, 165)).toEqual([0, 255, 0, 255]); // green, top right
  expect(out.px(205, 455)).toEqual([0, 0, 255, 255]); // blue, bottom left
  expect(out.px(595, 455)).toEqual([255, 0, 0, 255]); // red, bottom right
  expect(out.px(10, 300)).toEqual([255, 255, 255, 255]); // spacing: the white background
  expect(out.px(22, 22)).toEqual([255, 255, 255, 255]); // outside the rounded corner
  // The wide split picture fills its cell centred: black on the left, yellow on the right.
  expect(out.px(60, 165)).toEqual([0, 0, 0, 255]);
  expect(out.px(350, 165)).toEqual([255, 255, 0, 255]);

  // Dragging the first picture onto the last swaps them.
  await drag(page, [205, 165], [595, 455]);
  out = await exported(page, 'Download PNG');
  expect(out.px(205, 165)).toEqual([255, 0, 0, 255]);
  expect(out.px(450, 455)).toEqual([0, 0, 0, 255]); // the split picture moved here
  expect(out.px(740, 455)).toEqual([255, 255, 0, 255]);

  // Crop: drag the split picture to the right inside its cell: its black left half fills the cell.
  await page.getByLabel('moves the picture inside its cell (crop)').check();
  await drag(page, [500, 455], [790, 455]);
  out = await exported(page, 'Download PNG');
  expect(out.px(740, 455)).toEqual([0, 0, 0, 255]);
  expect(out.px(595, 165)).toEqual([0, 255, 0, 255]); // the others stay

  // JPG and a transparent PNG.
  await page.getByLabel('Format', { exact: true }).selectOption('jpeg');
  out = await exported(page, 'Download JPG');
  expect(out.file.name).toBe('composition.jpg');
  expect(out.file.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  await page.getByLabel('Format', { exact: true }).selectOption('png');
  await page.getByLabel('Transparent background').check();
  out = await exported(page, 'Download PNG');
  expect(out.px(10, 300)[3]).toBe(0);

  // Free layout: pictures placed at 20 + 40·i, 267 px wide; dragging one moves it (and brings it to the front).
  await page.getByLabel('Layout', { exact: true }).selectOption('free');
  await drag(page, [200, 200], [600, 450]);
  out = await exported(page, 'Download PNG');
  expect(out.px(620, 470)).not.toEqual([0, 0, 0, 0]);
  expect(out.px(790, 10)[3]).toBe(0);
  expect(errors).toEqual([]);
});

test('Image composition: files that are no pictures and sizes too large are explained', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/compositions/new/');
  await page.getByLabel('Choose images').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('no picture') });
  await expect(page.getByRole('alert')).toHaveText('Not a picture this browser can read: notes.png.');
  await page.getByLabel('Width (px)').fill('16000');
  await page.getByLabel('Height (px)').fill('16000');
  await expect(page.getByRole('alert').last()).toHaveText(
    '16000 × 16000 is more than 120 megapixels, more than a browser can draw. Choose a smaller size.',
  );
  expect(errors).toEqual([]);
});

test('Image composition, keyboard only: a picture of the free layout is placed with the arrow keys and the Left/Top fields', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto('/compositions/new/?layout=free');
  await page.getByLabel('Choose images').setInputFiles([
    { name: 'red.png', mimeType: 'image/png', buffer: await picture(page, 120, 80, '#dd2222') },
    { name: 'blue.png', mimeType: 'image/png', buffer: await picture(page, 120, 80, '#2222dd') },
  ]);
  const chip = page.getByRole('button', { name: '1. red.png' });
  await chip.focus();
  await page.keyboard.press('Enter');
  await expect(chip).toHaveAttribute('aria-pressed', 'true');
  const left = page.getByLabel('Left (px)');
  const top = page.getByLabel('Top (px)');
  const [x0, y0] = [Number(await left.inputValue()), Number(await top.inputValue())];
  const canvas = page.getByRole('img', { name: /^The composition/ });
  await canvas.focus();
  await expect(canvas).toHaveAccessibleDescription(/arrow keys on the composition move it/);
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('ArrowUp');
  await expect(left).toHaveValue(String(x0 + 3));
  await expect(top).toHaveValue(String(y0 + 9));
  await left.fill('0');
  await top.fill('0');
  await expect(left).toHaveValue('0');
  // The picture is drawn where the fields say: its colour at the top-left corner of the composition.
  const { px } = await exported(page, 'Download PNG');
  expect(px(5, 5).slice(0, 3)).toEqual([0xdd, 0x22, 0x22]);
  expect(errors).toEqual([]);
});

test('Image composition and annotation on a phone: the picture and its tools come before the settings and the drop zone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/compositions/new/');
  await page.getByLabel('Choose images').setInputFiles([
    { name: 'a.png', mimeType: 'image/png', buffer: await picture(page, 120, 80, '#dd2222') },
    { name: 'b.png', mimeType: 'image/png', buffer: await picture(page, 120, 80, '#2222dd') },
  ]);
  const stage = (await page.getByRole('img', { name: /^The composition/ }).boundingBox())!;
  const settings = (await page.getByRole('group', { name: 'Composition settings' }).boundingBox())!;
  expect(stage.y).toBeLessThan(settings.y);
  expect(stage.y).toBeLessThan(740);

  await page.goto('/compositions/annotated/new');
  await page
    .getByLabel('Choose image')
    .setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: await picture(page, 300, 200, '#888888') });
  const toolbar = (await page.getByRole('toolbar', { name: 'Drawing tools' }).boundingBox())!;
  const drop = (await page.locator('.file-drop').boundingBox())!;
  expect(toolbar.y).toBeLessThan(drop.y);
  expect(toolbar.y).toBeLessThan(740);
});
