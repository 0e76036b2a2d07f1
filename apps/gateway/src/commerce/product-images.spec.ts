import { describe, expect, it } from '@jest/globals';
import { AppError, PRODUCT_IMAGE_STORED_MAX_BYTES } from '@tinkerdesk/contracts';
import { pngBomb, testPicture } from '@tinkerdesk/testing';
import sharp from 'sharp';
import { prepareProductImage } from './product-images.js';

async function refusal(bytes: Buffer): Promise<AppError> {
  const error = await prepareProductImage(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('prepareProductImage', () => {
  it('makes three WebP sizes fitted inside 160, 480 and 1200 px wide, never enlarged', async () => {
    const variants = await prepareProductImage(await testPicture(3000, 1500, 'jpeg'));
    expect(variants.map((v) => [v.size, v.width, v.height])).toEqual([
      ['small', 160, 80],
      ['medium', 480, 240],
      ['large', 1200, 600],
    ]);
    for (const v of variants) expect((await sharp(v.webp).metadata()).format).toBe('webp');
    const small = await prepareProductImage(await testPicture(200, 100, 'gif'));
    expect(small.map((v) => v.width)).toEqual([160, 200, 200]);
  });

  it('bounds the height too (twice the width): a very tall picture stays inside', async () => {
    const variants = await prepareProductImage(await testPicture(100, 4000, 'png'));
    expect(variants.map((v) => [v.width, v.height])).toEqual([
      [8, 320],
      [24, 960],
      [60, 2400],
    ]);
  });

  it('turns a picture upright by its EXIF orientation and drops the metadata', async () => {
    const jpeg = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#808080' } })
      .jpeg()
      .withMetadata({ orientation: 8, density: 300 })
      .toBuffer();
    const large = (await prepareProductImage(jpeg)).find((v) => v.size === 'large')!;
    const meta = await sharp(large.webp).metadata();
    expect(meta).toMatchObject({ width: 200, height: 400 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  /** Pseudo-random pixels (a fixed seed): they compress badly, the worst case for the stored size. */
  const noise = (width: number, height: number) => {
    const pixels = Buffer.alloc(width * height * 3);
    let x = 12345;
    for (let i = 0; i < pixels.length; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      pixels[i] = x >>> 24;
    }
    return sharp(pixels, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer();
  };

  it('lowers the quality until all sizes fit in one message together', async () => {
    // 900 x 900 of noise takes about 711 kB at the first quality: the next one fits.
    const variants = await prepareProductImage(await noise(900, 900));
    expect(variants.reduce((n, v) => n + v.webp.length, 0)).toBeLessThanOrEqual(PRODUCT_IMAGE_STORED_MAX_BYTES);
  });

  it('refuses with 413 a picture too detailed to fit even at the lowest quality', async () => {
    const error = await refusal(await noise(1200, 2400));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.detail).toMatch(/too detailed/);
  });

  it.each([
    ['an empty file', Buffer.alloc(0), /empty/],
    ['text', Buffer.from('hello, not a picture'), /not a PNG, JPEG, WebP or GIF image/],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), /not a PNG, JPEG, WebP or GIF image/],
  ])('refuses %s by its bytes', async (_what, bytes, detail) => {
    const error = await refusal(bytes);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.detail).toMatch(detail);
  });

  it('refuses a damaged file and a decompression bomb in plain words', async () => {
    const cut = (await testPicture(300, 300, 'png')).subarray(0, 120);
    expect((await refusal(cut)).detail).toMatch(/damaged or incomplete/);
    const started = Date.now();
    expect((await refusal(pngBomb())).detail).toMatch(/too large in pixels: at most 50 megapixels/);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
