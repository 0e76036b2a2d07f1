import type { Locator, Page } from '@playwright/test';

/** The size and some pixels (RGBA) of an image file, decoded by the page's browser. */
export async function imagePixels(
  page: Page,
  bytes: Buffer,
  points: Array<[number, number]> = [],
): Promise<{ width: number; height: number; pixels: number[][] }> {
  return page.evaluate(
    async ({ b64, points }) => {
      const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))]));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const pixels = points.map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data));
      return { width: bitmap.width, height: bitmap.height, pixels };
    },
    { b64: bytes.toString('base64'), points },
  );
}

/** Every pixel (RGBA) of an image file, decoded by the page's browser. */
export async function imageData(page: Page, bytes: Buffer): Promise<{ width: number; height: number; data: Buffer }> {
  const result = await page.evaluate(async (b64) => {
    const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))]));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0);
    const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
    let binary = '';
    for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return { width: bitmap.width, height: bitmap.height, b64: btoa(binary) };
  }, bytes.toString('base64'));
  return { width: result.width, height: result.height, data: Buffer.from(result.b64, 'base64') };
}

/** A binary PPM (P6, as pdftoppm writes) as RGBA. */
export function readPpm(file: Buffer): { width: number; height: number; data: Buffer } {
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(file.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('not a binary PPM');
  const [width, height] = [Number(header[1]), Number(header[2])];
  const rgb = file.subarray(header[0].length);
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += 3) {
    data[i * 4] = rgb[j]!;
    data[i * 4 + 1] = rgb[j + 1]!;
    data[i * 4 + 2] = rgb[j + 2]!;
    data[i * 4 + 3] = 255;
  }
  return { width, height, data };
}

type Rgba = { width: number; height: number; data: Buffer };

/**
 * How two RGBA images differ over their common area (top left): the mean absolute channel difference
 * (0-255) and the share of pixels off by more than 64 in a channel.
 */
export function pixelDifference(a: Rgba, b: Rgba): { mean: number; farOff: number } {
  const width = Math.min(a.width, b.width);
  const height = Math.min(a.height, b.height);
  let sum = 0;
  let far = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * a.width + x) * 4;
      const j = (y * b.width + x) * 4;
      let worst = 0;
      for (let c = 0; c < 3; c++) {
        const d = Math.abs(a.data[i + c]! - b.data[j + c]!);
        sum += d;
        worst = Math.max(worst, d);
      }
      if (worst > 64) far++;
    }
  }
  return { mean: sum / (width * height * 3), farOff: far / (width * height) };
}

/** Drags with the mouse on a canvas between two points given in the canvas's own pixels (width × height). */
export async function dragOnCanvas(
  page: Page,
  canvas: Locator,
  size: [number, number],
  from: [number, number],
  to: [number, number],
): Promise<void> {
  // Centred, not merely "in view": the sticky top bar can cover the top of a canvas that is in view.
  await canvas.evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'center' }));
  const box = (await canvas.boundingBox())!;
  const at = ([x, y]: [number, number]) => [box.x + (x * box.width) / size[0], box.y + (y * box.height) / size[1]] as const;
  await page.mouse.move(...at(from));
  await page.mouse.down();
  await page.mouse.move(...at([(from[0] + to[0]) / 2, (from[1] + to[1]) / 2]), { steps: 5 });
  await page.mouse.move(...at(to), { steps: 5 });
  await page.mouse.up();
}
