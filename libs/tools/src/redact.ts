/**
 * Redaction that destroys pixels: a region of an RGBA image is replaced by values computed only from
 * block averages, so nothing of the original detail survives in the exported file (unlike a CSS or
 * canvas blur filter, whose output can be partly reversed, or a shape drawn over the original).
 */
export interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The region clipped to the image, in whole pixels; null when nothing is left. */
export function clipRegion(region: Region, width: number, height: number): Region | null {
  const x0 = Math.max(0, Math.floor(Math.min(region.x, region.x + region.width)));
  const y0 = Math.max(0, Math.floor(Math.min(region.y, region.y + region.height)));
  const x1 = Math.min(width, Math.ceil(Math.max(region.x, region.x + region.width)));
  const y1 = Math.min(height, Math.ceil(Math.max(region.y, region.y + region.height)));
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

/** Block averages of the region: a grid of ceil(w/block) × ceil(h/block) RGBA means. */
function blockMeans(image: Pixels, r: Region, block: number): { cols: number; rows: number; means: Float64Array } {
  const cols = Math.ceil(r.width / block);
  const rows = Math.ceil(r.height / block);
  const means = new Float64Array(cols * rows * 4);
  const counts = new Float64Array(cols * rows);
  for (let y = 0; y < r.height; y++) {
    const row = Math.floor(y / block);
    for (let x = 0; x < r.width; x++) {
      const cell = row * cols + Math.floor(x / block);
      const i = ((r.y + y) * image.width + r.x + x) * 4;
      for (let c = 0; c < 4; c++) means[cell * 4 + c]! += image.data[i + c]!;
      counts[cell]!++;
    }
  }
  for (let cell = 0; cell < cols * rows; cell++) for (let c = 0; c < 4; c++) means[cell * 4 + c]! /= counts[cell]!;
  return { cols, rows, means };
}

/**
 * The block size a redaction of `region` uses: never smaller than the region's shorter side, so a block
 * spans the whole height of a line of text in it (or the whole width of a tall region) and no glyph is
 * cut into blocks that could outline it, whatever the size of the text; `strength` can only make it
 * coarser. (Small fixed blocks leave large text readable: 48 px text stayed legible under 12 px blocks.)
 */
export function redactionBlock(region: Region, strength: number): number {
  return Math.max(2, Math.round(strength), Math.ceil(Math.min(Math.abs(region.width), Math.abs(region.height))));
}

/** Each block of the region (see redactionBlock) becomes its average colour. */
export function pixelate(image: Pixels, region: Region, strength: number): void {
  const r = clipRegion(region, image.width, image.height);
  if (!r) return;
  const size = redactionBlock(r, strength);
  const { cols, means } = blockMeans(image, r, size);
  for (let y = 0; y < r.height; y++) {
    for (let x = 0; x < r.width; x++) {
      const cell = Math.floor(y / size) * cols + Math.floor(x / size);
      const i = ((r.y + y) * image.width + r.x + x) * 4;
      for (let c = 0; c < 4; c++) image.data[i + c] = Math.round(means[cell * 4 + c]!);
    }
  }
}

/**
 * A smooth blur that keeps nothing of the original: the region is reduced to block averages (see
 * redactionBlock) and drawn back with bilinear interpolation between the block centres.
 */
export function blurRegion(image: Pixels, region: Region, strength: number): void {
  const r = clipRegion(region, image.width, image.height);
  if (!r) return;
  const size = redactionBlock(r, strength);
  const { cols, rows, means } = blockMeans(image, r, size);
  const at = (cx: number, cy: number, c: number) =>
    means[(Math.min(rows - 1, Math.max(0, cy)) * cols + Math.min(cols - 1, Math.max(0, cx))) * 4 + c]!;
  for (let y = 0; y < r.height; y++) {
    const fy = (y + 0.5) / size - 0.5;
    const y0 = Math.floor(fy);
    const ty = fy - y0;
    for (let x = 0; x < r.width; x++) {
      const fx = (x + 0.5) / size - 0.5;
      const x0 = Math.floor(fx);
      const tx = fx - x0;
      const i = ((r.y + y) * image.width + r.x + x) * 4;
      for (let c = 0; c < 4; c++) {
        const top = at(x0, y0, c) * (1 - tx) + at(x0 + 1, y0, c) * tx;
        const bottom = at(x0, y0 + 1, c) * (1 - tx) + at(x0 + 1, y0 + 1, c) * tx;
        image.data[i + c] = Math.round(top * (1 - ty) + bottom * ty);
      }
    }
  }
}
