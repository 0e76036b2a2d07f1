import { describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { convertImage, outputFilename, UnconvertibleInputError } from './image-conversion.js';

const png = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .png()
    .toBuffer();

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

  it('flattens transparency onto white for JPEG', async () => {
    const out = await convertImage(await png(4, 4), { filename: 'a.png', to: 'jpg' });
    const { data } = await sharp(out.data).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(240);
    expect(out.mediaType).toBe('image/jpeg');
  });

  it('refuses input that is not an image', async () => {
    await expect(convertImage(Buffer.from('hello'), { filename: 'notes.txt', to: 'png' })).rejects.toThrow(UnconvertibleInputError);
    await expect(convertImage(Buffer.from('hello'), { filename: 'notes.txt', to: 'png' })).rejects.toThrow(
      'notes.txt is not an image this service can read',
    );
  });
});
