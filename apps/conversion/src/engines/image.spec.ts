import { describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { declaredPng, rejection } from '@tinkerdesk/testing';

import { ConversionFailure } from './failure.js';
import { convertImage, MAX_INPUT_PIXELS, outputFilename } from './image.js';

const png = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .png()
    .toBuffer();

const failureOf = (promise: Promise<unknown>) => rejection(promise, ConversionFailure);

describe('outputFilename', () => {
  it('swaps the extension and keeps inner dots', () => {
    expect(outputFilename('photo.final.png', 'webp')).toBe('photo.final.webp');
    expect(outputFilename('scan', 'jpeg')).toBe('scan.jpg');
    expect(outputFilename('.png', 'gif')).toBe('converted.gif');
  });
});

describe('convertImage', () => {
  it('converts and fits inside the box without enlarging', async () => {
    const out = await convertImage(await png(400, 200), { filename: 'a.png', to: 'webp', width: 100 });
    expect(out).toMatchObject({ filename: 'a.webp', mediaType: 'image/webp', width: 100, height: 50 });
    expect((await sharp(out.data).metadata()).format).toBe('webp');
    const small = await convertImage(await png(40, 20), { filename: 'a.png', to: 'png', width: 100 });
    expect(small.width).toBe(40);
  });

  it('flattens transparency onto white for JPEG, or onto the background asked for', async () => {
    const out = await convertImage(await png(4, 4), { filename: 'a.png', to: 'jpg' });
    const { data } = await sharp(out.data).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(240);
    expect(out.mediaType).toBe('image/jpeg');
    const red = await convertImage(await png(4, 4), { filename: 'a.png', to: 'png', background: '#ff0000' });
    const pixels = await sharp(red.data).raw().toBuffer();
    expect([pixels[0], pixels[1], pixels[2]]).toEqual([255, 0, 0]);
    expect((await failureOf(convertImage(await png(4, 4), { filename: 'a.png', to: 'jpg', background: 'not a colour' }))).reason).toBe(
      'unsupported',
    );
  });

  it('applies quality, and refuses a quality out of range', async () => {
    const noisy = await sharp(Buffer.from(Array.from({ length: 64 * 64 * 3 }, (_, i) => (i * 2654435761) >>> 24)), {
      raw: { width: 64, height: 64, channels: 3 },
    })
      .png()
      .toBuffer();
    const low = await convertImage(noisy, { filename: 'n.png', to: 'jpg', quality: 10 });
    const high = await convertImage(noisy, { filename: 'n.png', to: 'jpg', quality: 95 });
    expect(low.data.length).toBeLessThan(high.data.length);
    expect((await failureOf(convertImage(noisy, { filename: 'n.png', to: 'webp', quality: 0 }))).message).toBe(
      'quality must be a whole number from 1 to 100',
    );
  });

  it('keeps the frames of an animated GIF', async () => {
    const frame = (colour: string) =>
      sharp({ create: { width: 8, height: 8, channels: 3, background: colour } })
        .png()
        .toBuffer();
    const frames = await Promise.all(['#f00', '#0f0', '#00f'].map(frame));
    const gif = await sharp(frames, { join: { animated: true } })
      .gif({ loop: 0, delay: 100 })
      .toBuffer();
    const out = await convertImage(gif, { filename: 'anim.gif', to: 'webp' });
    const meta = await sharp(out.data, { animated: true }).metadata();
    expect(meta.pages).toBe(3);
    expect(out).toMatchObject({ width: 8, height: 8 });
  });

  it('refuses the pixel bomb before decoding it: a tiny PNG declaring 10,000 × 10,000 pixels', async () => {
    const bomb = declaredPng(10_000, 10_000);
    expect(bomb.length).toBeLessThan(100);
    const started = performance.now();
    const error = await failureOf(convertImage(bomb, { filename: 'bomb.png', to: 'webp' }));
    expect(error.reason).toBe('too-large');
    expect(error.message).toBe(
      `the image is 10000 × 10000 pixels (100 megapixels); at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels are converted`,
    );
    expect(performance.now() - started).toBeLessThan(1000); // refused from the header, not after decoding
  });

  it('refuses to write more pixels than the target allows (AVIF is slow to encode)', async () => {
    const big = declaredPng(6000, 6000); // 36 MP: within the input bound, over AVIF's 32 MP
    const error = await failureOf(convertImage(big, { filename: 'big.png', to: 'avif' }));
    expect(error.message).toBe('AVIF of 6000 × 6000 pixels is more than this service writes (32 megapixels); choose a smaller size');
  });

  it('refuses input that is not an image, and an empty file', async () => {
    expect((await failureOf(convertImage(Buffer.from('hello'), { filename: 'notes.txt', to: 'png' }))).message).toBe(
      'notes.txt is not an image this service can read',
    );
    expect((await failureOf(convertImage(new Uint8Array(0), { filename: 'e.png', to: 'png' }))).message).toBe('the file is empty');
  });
});
