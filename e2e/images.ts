import type { Page } from '@playwright/test';

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
