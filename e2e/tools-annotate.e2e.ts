import { expect, test, type Page } from '@playwright/test';
import { downloaded, watchErrors } from './helpers.js';
import { dragOnCanvas, imageData } from './images.js';

// The annotation editor through the real UI: shapes drawn with the mouse, undo and redo, keyboard tool
// keys, and redaction that really destroys the pixels of the exported picture.

const W = 400;
const H = 300;
const SECRET = { x: 40, y: 40, w: 160, h: 100 };
const PIXELATED = { x: 220, y: 160, w: 150, h: 110 };

/** A light grey picture with two patches of random noise (the "secrets"), as PNG, made by the page's canvas. */
async function secretPicture(page: Page): Promise<Buffer> {
  const b64 = await page.evaluate(
    ({ W, H, patches }) => {
      const canvas = document.createElement('canvas');
      canvas.width = W;
      canvas.height = H;
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = '#dddddd';
      ctx.fillRect(0, 0, W, H);
      let seed = 42;
      for (const p of patches) {
        const data = ctx.createImageData(p.w, p.h);
        for (let i = 0; i < data.data.length; i++) {
          seed = (seed * 1103515245 + 12345) >>> 0;
          data.data[i] = i % 4 === 3 ? 255 : seed >>> 24;
        }
        ctx.putImageData(data, p.x, p.y);
      }
      return canvas.toDataURL('image/png').split(',')[1]!;
    },
    { W, H, patches: [SECRET, PIXELATED] },
  );
  return Buffer.from(b64, 'base64');
}

function drag(page: Page, from: [number, number], to: [number, number]) {
  return dragOnCanvas(page, page.locator('.annotate-stage canvas'), [W, H], from, to);
}

function channel(img: { width: number; data: Buffer }, r: { x: number; y: number; w: number; h: number }, inset: number): number[] {
  const out: number[] = [];
  for (let y = r.y + inset; y < r.y + r.h - inset; y++)
    for (let x = r.x + inset; x < r.x + r.w - inset; x++) out.push(img.data[(y * img.width + x) * 4]!);
  return out;
}

function correlation(a: number[], b: number[]): number {
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const [ma, mb] = [mean(a), mean(b)];
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < a.length; i++) {
    cov += (a[i]! - ma) * (b[i]! - mb);
    va += (a[i]! - ma) ** 2;
    vb += (b[i]! - mb) ** 2;
  }
  return vb === 0 ? 0 : cov / Math.sqrt(va * vb);
}

test('Annotated image: shapes, undo/redo, tool keys, and blur and pixelate that leave no trace of the original pixels', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto('/compositions/annotated/new');
  const original = await secretPicture(page);
  await page.getByLabel('Choose image').setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: original });
  const canvas = page.getByRole('img', { name: /^The picture with/ });
  await expect(canvas).toHaveAccessibleName('The picture with 0 annotations; drawing with the Arrow tool');

  await page.getByRole('button', { name: 'Blur', exact: true }).click();
  await drag(page, [SECRET.x - 2, SECRET.y - 2], [SECRET.x + SECRET.w + 2, SECRET.y + SECRET.h + 2]);
  await page.keyboard.press('x');
  await expect(page.getByRole('button', { name: 'Pixelate' })).toHaveAttribute('aria-pressed', 'true');
  await drag(page, [PIXELATED.x - 2, PIXELATED.y - 2], [PIXELATED.x + PIXELATED.w + 2, PIXELATED.y + PIXELATED.h + 2]);
  await page.keyboard.press('a');
  await drag(page, [300, 30], [230, 120]);
  await page.keyboard.press('r');
  await drag(page, [250, 20], [390, 60]);
  await page.getByRole('button', { name: 'Number', exact: true }).click();
  await drag(page, [20, 250], [20, 250]);
  await drag(page, [60, 250], [60, 250]);
  await expect(canvas).toHaveAccessibleName('The picture with 6 annotations; drawing with the Number tool');

  // Undo and redo, by button and by keyboard.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(canvas).toHaveAccessibleName(/with 5 annotations/);
  await page.keyboard.press('Control+Shift+Z');
  await expect(canvas).toHaveAccessibleName(/with 6 annotations/);
  await page.keyboard.press('Control+z');
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect(canvas).toHaveAccessibleName(/with 6 annotations/);

  const file = await downloaded(page, 'Download PNG');
  expect(file.name).toBe('screenshot-annotated.png');
  const before = await imageData(page, original);
  const after = await imageData(page, file.bytes);
  expect([after.width, after.height]).toEqual([W, H]);
  for (const region of [SECRET, PIXELATED]) {
    const was = channel(before, region, 3);
    const now = channel(after, region, 3);
    // Nothing of the noise survives: no correlation with it, and (almost) no pixel keeps its value.
    expect(Math.abs(correlation(was, now))).toBeLessThan(0.2);
    expect(now.filter((v, i) => v === was[i]).length / now.length).toBeLessThan(0.05);
  }
  // Away from every annotation the picture is untouched.
  const untouched = { x: 120, y: 200, w: 60, h: 40 };
  expect(channel(after, untouched, 0)).toEqual(channel(before, untouched, 0));
  // The numbered markers and the red rectangle are drawn.
  const px = (x: number, y: number) => [...after.data.subarray((y * W + x) * 4, (y * W + x) * 4 + 3)];
  expect(px(250, 40)[0]).toBeGreaterThan(180);
  expect(px(250, 40)[1]).toBeLessThan(80);
  expect(errors).toEqual([]);
});

test('Annotated image: a file that is not a picture is explained', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/compositions/annotated/new');
  await page.getByLabel('Choose image').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
  await expect(page.getByRole('alert')).toHaveText(
    'This file is not a picture the browser can read. Use a PNG, JPEG, WebP, GIF or BMP image.',
  );
  await expect(page.getByRole('toolbar')).toHaveCount(0);
  expect(errors).toEqual([]);
});

/** Lines of text drawn by the page's canvas on white, as PNG, with each line's tight ink box. */
async function textPicture(page: Page, lines: Array<{ text: string; size: number; x: number; y: number }>) {
  const { b64, boxes } = await page.evaluate(
    ({ W, H, lines }) => {
      const canvas = document.createElement('canvas');
      canvas.width = W;
      canvas.height = H;
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, W, H);
      ctx.fillStyle = '#111111';
      ctx.textBaseline = 'alphabetic';
      const boxes = lines.map((l) => {
        ctx.font = `${l.size}px sans-serif`;
        ctx.fillText(l.text, l.x, l.y);
        const m = ctx.measureText(l.text);
        const pad = Math.ceil(l.size / 10);
        const x = Math.floor(l.x - m.actualBoundingBoxLeft) - pad;
        const y = Math.floor(l.y - m.actualBoundingBoxAscent) - pad;
        return {
          x,
          y,
          w: Math.ceil(m.actualBoundingBoxLeft + m.actualBoundingBoxRight) + 2 * pad,
          h: Math.ceil(m.actualBoundingBoxAscent + m.actualBoundingBoxDescent) + 2 * pad,
        };
      });
      return { b64: canvas.toDataURL('image/png').split(',')[1]!, boxes };
    },
    { W, H, lines },
  );
  return { png: Buffer.from(b64, 'base64'), boxes };
}

/** Pixels of a box where the red channel jumps by more than `step` to the next pixel down (across a line of text). */
function edgesAcross(img: { width: number; data: Buffer }, r: { x: number; y: number; w: number; h: number }, step: number): number {
  let edges = 0;
  for (let y = r.y; y < r.y + r.h - 1; y++)
    for (let x = r.x; x < r.x + r.w; x++) {
      if (Math.abs(img.data[(y * img.width + x) * 4]! - img.data[((y + 1) * img.width + x) * 4]!) > step) edges++;
    }
  return edges;
}

test('Annotated image: blur and pixelate at every size leave text of any size unreadable; cover paints it out', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await page.goto('/compositions/annotated/new');
  const { png, boxes } = await textPicture(page, [
    { text: 'Hello UX', size: 48, x: 20, y: 70 },
    { text: 'Account 4921 0042', size: 16, x: 20, y: 130 },
    { text: 'Big', size: 96, x: 220, y: 260 },
  ]);
  const before = await imageData(page, png);
  for (const box of boxes) expect(edgesAcross(before, box, 48)).toBeGreaterThan(10);

  for (const tool of ['Blur', 'Pixelate'] as const) {
    for (const size of ['Small', 'Medium', 'Large'] as const) {
      await page.getByLabel('Choose image').setInputFiles({ name: 'text.png', mimeType: 'image/png', buffer: png });
      await page.getByRole('button', { name: tool, exact: true }).click();
      await page.getByLabel('Size').selectOption({ label: size });
      for (const b of boxes) await drag(page, [b.x, b.y], [b.x + b.w, b.y + b.h]);
      await expect(page.getByRole('img', { name: /^The picture with 3 annotations/ })).toBeVisible();
      const after = await imageData(page, (await downloaded(page, 'Download PNG')).bytes);
      for (const b of boxes) {
        // No glyph edge is left across the line, and the result does not follow the text.
        expect({ tool, size, box: b, edges: edgesAcross(after, b, 24) }).toEqual({ tool, size, box: b, edges: 0 });
        expect(Math.abs(correlation(channel(before, b, 0), channel(after, b, 0)))).toBeLessThan(0.5);
      }
    }
  }

  await page.getByLabel('Choose image').setInputFiles({ name: 'text.png', mimeType: 'image/png', buffer: png });
  await page.keyboard.press('c');
  await expect(page.getByRole('button', { name: 'Cover', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const first = boxes[0]!;
  await drag(page, [first.x, first.y], [first.x + first.w, first.y + first.h]);
  const covered = await imageData(page, (await downloaded(page, 'Download PNG')).bytes);
  const inside = channel(covered, first, 2);
  expect(new Set(inside)).toEqual(new Set([0x11]));
  expect(errors).toEqual([]);
});

test('Annotated image: text is typed where it is placed, tool keys stay off while typing, and placed text can be edited', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto('/compositions/annotated/new');
  await page.getByLabel('Choose image').setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: await secretPicture(page) });
  const canvas = page.getByRole('img', { name: /^The picture with/ });
  await page.keyboard.press('t');
  await expect(page.getByRole('button', { name: 'Text', exact: true })).toHaveAttribute('aria-pressed', 'true');

  // A click opens a text box right there; h, e and r are letters, not tool keys, while typing.
  await drag(page, [250, 200], [250, 200]);
  const editor = page.getByRole('textbox', { name: 'Text on the picture' });
  await expect(editor).toBeFocused();
  await page.keyboard.type('Here threw her');
  await expect(editor).toHaveValue('Here threw her');
  await expect(page.getByRole('button', { name: 'Text', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Enter');
  await expect(editor).toHaveCount(0);
  await expect(canvas).toHaveAccessibleName('The picture with 1 annotation; drawing with the Text tool');

  // Clicking the placed text opens it again for editing; the change replaces it (still one annotation).
  await drag(page, [260, 210], [260, 210]);
  await expect(editor).toHaveValue('Here threw her');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('Edited');
  await page.keyboard.press('Enter');
  await expect(canvas).toHaveAccessibleName('The picture with 1 annotation; drawing with the Text tool');
  await drag(page, [255, 205], [255, 205]);
  await expect(editor).toHaveValue('Edited');
  // Escape leaves it as it was.
  await page.keyboard.type(' and more');
  await page.keyboard.press('Escape');
  await drag(page, [255, 205], [255, 205]);
  await expect(editor).toHaveValue('Edited');
  await page.keyboard.press('Escape');
  // Undo brings back the first text; tool keys work again once the box is gone.
  await page.keyboard.press('Control+z');
  await drag(page, [255, 205], [255, 205]);
  await expect(editor).toHaveValue('Here threw her');
  await page.keyboard.press('Escape');
  await page.keyboard.press('r');
  await expect(page.getByRole('button', { name: 'Rectangle' })).toHaveAttribute('aria-pressed', 'true');
  expect(errors).toEqual([]);
});
