/** Canvas sizes every current browser can draw and encode: a side of at most 16,384 pixels, 120 megapixels in all. */
export const MAX_CANVAS_SIDE = 16384;
export const MAX_CANVAS_PIXELS = 120_000_000;

export function fitsCanvas(width: number, height: number): boolean {
  return width <= MAX_CANVAS_SIDE && height <= MAX_CANVAS_SIDE && width * height <= MAX_CANVAS_PIXELS;
}
