import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { blurRegion, clipRegion, pixelate, type Pixels } from './redact.js';

function noise(width: number, height: number, seed: number): Pixels {
  const data = new Uint8ClampedArray(width * height * 4);
  let s = seed;
  for (let i = 0; i < data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    data[i] = i % 4 === 3 ? 255 : s >>> 24;
  }
  return { width, height, data };
}

function region(image: Pixels, x0: number, y0: number, w: number, h: number): number[] {
  const out: number[] = [];
  for (let y = y0; y < y0 + h; y++)
    for (let x = x0; x < x0 + w; x++) out.push(...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4));
  return out;
}

describe('redaction', () => {
  it('pixelate leaves one colour per block and nothing outside the region changes', () => {
    const image = noise(64, 48, 7);
    const before = Uint8ClampedArray.from(image.data);
    pixelate(image, { x: 8, y: 8, width: 32, height: 16 }, 8);
    for (let by = 8; by < 24; by += 8)
      for (let bx = 8; bx < 40; bx += 8) {
        const block = region(image, bx, by, 8, 8);
        for (let i = 4; i < block.length; i++) expect(block[i]).toBe(block[i % 4]);
      }
    for (let y = 0; y < 48; y++)
      for (let x = 0; x < 64; x++) {
        if (x >= 8 && x < 40 && y >= 8 && y < 24) continue;
        const i = (y * 64 + x) * 4;
        expect(image.data.subarray(i, i + 4)).toEqual(before.subarray(i, i + 4));
      }
  });

  it('two images that differ inside the region but share its block averages redact to the same pixels (nothing else survives)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 2, max: 12 }), fc.boolean(), (seed, block, blur) => {
        const a = noise(40, 40, seed);
        const b = { width: 40, height: 40, data: Uint8ClampedArray.from(a.data) };
        // b swaps pixels within each block: same averages, different detail.
        const r = { x: 0, y: 0, width: 40, height: 40 };
        for (let y = 0; y < 40; y += block)
          for (let x = 0; x + 1 < Math.min(40, Math.ceil((x + 1) / block) * block); x += 2) {
            const i = (y * 40 + x) * 4;
            const j = i + 4;
            if (Math.floor(x / block) !== Math.floor((x + 1) / block)) continue;
            for (let c = 0; c < 4; c++) [b.data[i + c], b.data[j + c]] = [a.data[j + c]!, a.data[i + c]!];
          }
        (blur ? blurRegion : pixelate)(a, r, block);
        (blur ? blurRegion : pixelate)(b, r, block);
        expect(Array.from(a.data)).toEqual(Array.from(b.data));
      }),
      { numRuns: 40 },
    );
  });

  it('blur keeps no correlation with the original noise', () => {
    const image = noise(192, 24, 3);
    const before = region(image, 0, 0, 192, 24).filter((_, i) => i % 4 === 0);
    blurRegion(image, { x: 0, y: 0, width: 192, height: 24 }, 16);
    const after = region(image, 0, 0, 192, 24).filter((_, i) => i % 4 === 0);
    const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
    const [ma, mb] = [mean(before), mean(after)];
    let cov = 0;
    let va = 0;
    let vb = 0;
    for (let i = 0; i < before.length; i++) {
      cov += (before[i]! - ma) * (after[i]! - mb);
      va += (before[i]! - ma) ** 2;
      vb += (after[i]! - mb) ** 2;
    }
    expect(Math.abs(cov / Math.sqrt(va * vb))).toBeLessThan(0.15);
  });

  it('clips regions drawn in any direction to the image', () => {
    expect(clipRegion({ x: 50, y: 40, width: -60, height: -10 }, 45, 45)).toEqual({ x: 0, y: 30, width: 45, height: 10 });
    expect(clipRegion({ x: 100, y: 0, width: 5, height: 5 }, 45, 45)).toBeNull();
  });
});
