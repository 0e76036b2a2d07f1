import { describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { blurRegion, pixelate, type Pixels, type Region } from './redact.js';

// Redaction of real rendered text (DejaVu Sans through sharp's SVG renderer), at several sizes and at
// every strength the annotation page can set, over the text's own tight box (how a person selects
// it). After redaction, nothing may tell the text apart: no glyph edges are left, and an OCR-like
// matcher that correlates the result with renderings of candidate texts cannot pick the true one.

const SIZES = [12, 24, 48, 96];
/** The annotation page's strengths: max(8, 12 × scale × picture size / 1000) for scales 0.6, 1, 1.8, and large pictures. */
const STRENGTHS = [8, 12, 22, 43];
const TARGET = 'Hello UX';
const CANDIDATES = [TARGET, 'Jelly OK', 'Hallo UK', 'Help us!', 'Yellow X', 'Wolf 123', 'Bingo IT', 'HELLO UX'];

async function rendered(text: string, size: number): Promise<Pixels> {
  const width = Math.ceil(size * 6);
  const height = Math.ceil(size * 2);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><text x="${size / 2}" y="${size * 1.4}" font-family="DejaVu Sans" font-size="${size}" fill="#111">${text}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength) };
}

/** The tight box around the ink, with a margin of a tenth of the text size. */
function inkBox(image: Pixels, size: number): Region {
  let [x0, y0, x1, y1] = [image.width, image.height, 0, 0];
  for (let y = 0; y < image.height; y++)
    for (let x = 0; x < image.width; x++)
      if (image.data[(y * image.width + x) * 4]! < 128)
        [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  const m = Math.ceil(size / 10);
  return {
    x: Math.max(0, x0 - m),
    y: Math.max(0, y0 - m),
    width: Math.min(image.width, x1 + m + 1) - Math.max(0, x0 - m),
    height: Math.min(image.height, y1 + m + 1) - Math.max(0, y0 - m),
  };
}

function grey(image: Pixels, r: Region): number[] {
  const out: number[] = [];
  for (let y = r.y; y < r.y + r.height; y++)
    for (let x = r.x; x < r.x + r.width; x++) {
      const i = (y * image.width + x) * 4;
      out.push(0.299 * image.data[i]! + 0.587 * image.data[i + 1]! + 0.114 * image.data[i + 2]!);
    }
  return out;
}

function correlation(a: number[], b: number[]): number {
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const [ma, mb] = [mean(a), mean(b)];
  let [cov, va, vb] = [0, 0, 0];
  for (let i = 0; i < a.length; i++) {
    cov += (a[i]! - ma) * (b[i]! - mb);
    va += (a[i]! - ma) ** 2;
    vb += (b[i]! - mb) ** 2;
  }
  return va === 0 || vb === 0 ? 0 : cov / Math.sqrt(va * vb);
}

/** Pixels of the region where the brightness jumps by more than `step` to the next pixel along the short side. */
function glyphEdges(values: number[], r: Region, step: number): number {
  let edges = 0;
  const across = r.height <= r.width;
  for (let y = 0; y < r.height; y++)
    for (let x = 0; x < r.width; x++) {
      const [nx, ny] = across ? [x, y + 1] : [x + 1, y];
      if (nx >= r.width || ny >= r.height) continue;
      if (Math.abs(values[y * r.width + x]! - values[ny * r.width + nx]!) > step) edges++;
    }
  return edges;
}

describe.each([
  ['blur', blurRegion],
  ['pixelate', pixelate],
] as const)('%s over rendered text', (_name, redact) => {
  it.each(SIZES)('leaves %i px text unreadable at every strength', async (size) => {
    const originals = await Promise.all(CANDIDATES.map((t) => rendered(t, size)));
    const target = originals[0]!;
    const box = inkBox(target, size);
    const before = grey(target, box);
    expect(glyphEdges(before, box, 48)).toBeGreaterThan(10);
    for (const strength of STRENGTHS) {
      const image: Pixels = { ...target, data: Uint8ClampedArray.from(target.data) };
      redact(image, box, strength);
      const after = grey(image, box);
      // No glyph edges: along the short side of the box nothing changes sharply any more.
      expect({ strength, edges: glyphEdges(after, box, 24) }).toEqual({ strength, edges: 0 });
      // An OCR-like matcher cannot pick the true text among the candidates.
      const scores = originals.map((o) => correlation(after, grey(o, box)));
      const best = Math.max(...scores.slice(1));
      expect(scores[0]! - best).toBeLessThan(0.05);
      expect(Math.abs(scores[0]!)).toBeLessThan(0.5);
    }
  });
});
