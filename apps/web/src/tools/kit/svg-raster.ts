import { fitsCanvas, MAX_CANVAS_SIDE } from './canvas-limits';

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

export interface RasterJob {
  markup: string;
  width: number;
  height: number;
  type: ImageType;
  /** 0..1, JPEG and WebP. */
  quality: number;
  /** A CSS colour, or undefined for transparent (JPEG has no transparency: white then). */
  background?: string;
}

/** The XML parser's complaint about markup, if any (the first line of Chromium's parsererror text). */
function xmlProblem(markup: string): string | undefined {
  const parsed = new DOMParser().parseFromString(markup, 'image/svg+xml');
  const error = parsed.querySelector('parsererror');
  if (!error) return undefined;
  const text = (error.textContent ?? '').replace(/\s+/g, ' ').trim();
  const detail = /error on line \d+ at column \d+: [^.]*/i.exec(text)?.[0] ?? text;
  return detail.replace(/^This page contains the following errors: ?/i, '');
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
  const url = URL.createObjectURL(new Blob([job.markup], { type: 'image/svg+xml' }));
  try {
    const image = new Image(job.width, job.height);
    image.src = url;
    try {
      await image.decode();
    } catch (error) {
      const problem = xmlProblem(job.markup);
      throw new Error(problem ? `This SVG is not well-formed: ${problem}` : 'The browser could not draw this SVG.', { cause: error });
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
