import { fitsCanvas, MAX_CANVAS_SIDE } from './canvas-limits';

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

export interface RasterJob {
  markup: string;
  /** The markup as the person gave it (before cleaning): what a syntax error's line and column refer to. */
  source?: string;
  width: number;
  height: number;
  type: ImageType;
  /** 0..1, JPEG and WebP. */
  quality: number;
  /** A CSS colour, or undefined for transparent (JPEG has no transparency: white then). */
  background?: string;
}

/**
 * The XML parser's complaint about markup, if any: Chromium's parsererror text without its framing
 * ("This page contains the following errors:" before, "Below is a rendering of the page up to the
 * first error." after).
 */
export function xmlProblem(markup: string): string | undefined {
  const parsed = new DOMParser().parseFromString(markup, 'image/svg+xml');
  const error = parsed.querySelector('parsererror');
  if (!error) return undefined;
  const text = (error.textContent ?? '')
    .replace(/\s+/g, ' ')
    .replace(/^\s*This page contains the following errors: ?/i, '')
    .replace(/\s*Below is a rendering of the page up to the first error\.?\s*$/i, '')
    .trim();
  return /^error on line \d+ at column \d+: .*$/i.exec(text)?.[0] ?? text;
}

/**
 * Draws SVG markup (already cleaned) on a canvas and encodes it. The SVG goes through an <img>: in an
 * image, browsers run no script and load nothing, whatever the markup says. (Browsers can decode SVG
 * only on the page, not in a worker; the drawing is one call.)
 */
export async function rasterize(job: RasterJob): Promise<Blob> {
  if (!fitsCanvas(job.width, job.height)) {
    throw new Error(`That is too large to draw: up to ${MAX_CANVAS_SIDE.toLocaleString('en')} pixels a side and 120 megapixels in all.`);
  }
  // Markup the image decoder would refuse is explained before it is tried; positions refer to what the
  // person gave (cleaning adds and removes text) when that shows the problem too.
  if (xmlProblem(job.markup) !== undefined) {
    const problem = (job.source !== undefined ? xmlProblem(job.source) : undefined) ?? xmlProblem(job.markup);
    throw new Error(`This SVG is not well-formed: ${problem}`);
  }
  const url = URL.createObjectURL(new Blob([job.markup], { type: 'image/svg+xml' }));
  try {
    const image = new Image(job.width, job.height);
    image.src = url;
    try {
      await image.decode();
    } catch (error) {
      throw new Error('The browser could not draw this SVG.', { cause: error });
    }
    const canvas = new OffscreenCanvas(job.width, job.height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This browser cannot draw on a canvas.');
    const fill = job.background ?? (job.type === 'image/jpeg' ? '#ffffff' : undefined);
    if (fill) {
      context.fillStyle = fill;
      context.fillRect(0, 0, job.width, job.height);
    }
    context.drawImage(image, 0, 0, job.width, job.height);
    try {
      return await canvas.convertToBlob({ type: job.type, quality: job.quality });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'SecurityError') {
        throw new Error('The browser will not export this SVG: it holds content it treats as foreign.', { cause: error });
      }
      throw error;
    }
  } finally {
    URL.revokeObjectURL(url);
  }
}
