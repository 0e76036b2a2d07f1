import sharp, { type Metadata, type Sharp } from 'sharp';
import { TARGET_FORMATS } from '@tinkerdesk/contracts';
import { ConversionFailure } from './failure.js';

/** Image targets sharp writes. */
export type ImageTarget = 'png' | 'jpg' | 'jpeg' | 'webp' | 'avif' | 'tiff' | 'gif';

export interface ImageConversionRequest {
  filename: string;
  to: ImageTarget;
  /** Fit inside this box (never enlarged). */
  width?: number | null;
  height?: number | null;
  /** 1–100 for JPEG, WebP and AVIF; each format's default otherwise. */
  quality?: number | null;
  /** CSS colour for what was transparent, in formats without alpha (JPEG) or when asked for. */
  background?: string | null;
}

export interface ConvertedImage {
  data: Buffer;
  filename: string;
  mediaType: string;
  width: number;
  height: number;
}

/**
 * Pixels (every frame counted) a job may write per target, set from what this machine measured on
 * worst-case (noise) input with one libvips thread, so that no job comes near its deadline:
 * JPEG 0.21 s, PNG 0.11 s, TIFF 0.09 s, WebP 2.2 s, GIF 3.1 s per 12 MP; AVIF 0.39 s per MP at
 * effort 2 (7.25 s per 2 MP at sharp's default effort 4, which is why effort is lowered).
 */
export const MAX_OUTPUT_PIXELS: Record<ImageTarget, number> = {
  png: 64_000_000,
  jpg: 64_000_000,
  jpeg: 64_000_000,
  tiff: 64_000_000,
  webp: 48_000_000,
  gif: 32_000_000,
  avif: 32_000_000,
};

/** Pixels of the input's first frame that libvips may decode at all (a 12 KB PNG can declare 10,000 × 10,000). */
export const MAX_INPUT_PIXELS = 64_000_000;

/** libvips stops a job past this (sharp's timeout), whatever the bounds above let through. */
const SHARP_TIMEOUT_SECONDS = 60;

/** The input's name with the new extension ("photo.final.png" → "photo.final.webp"). */
export function outputFilename(filename: string, to: ImageTarget): string {
  const base = filename.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'converted';
  return `${base}.${to === 'jpeg' ? 'jpg' : to}`;
}

function megapixels(pixels: number): string {
  return `${Math.round(pixels / 100_000) / 10} megapixels`;
}

/** The size an image of width × height gets when fitted inside the box without enlarging. */
function fitted(width: number, height: number, box: { width?: number | null; height?: number | null }): { width: number; height: number } {
  const scale = Math.min(1, box.width ? box.width / width : 1, box.height ? box.height / height : 1);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function encode(image: Sharp, to: ImageTarget, quality: number | undefined): Sharp {
  switch (to) {
    case 'jpg':
    case 'jpeg':
      return image.jpeg({ quality: quality ?? 85, mozjpeg: true });
    case 'webp':
      return image.webp({ quality: quality ?? 82, effort: 4 });
    case 'avif':
      return image.avif({ quality: quality ?? 55, effort: 2 });
    case 'png':
      return image.png({ compressionLevel: 8 });
    case 'tiff':
      return image.tiff({ compression: 'lzw' });
    case 'gif':
      return image.gif({ effort: 7 });
  }
}

/**
 * Converts an image with sharp (libvips): honours EXIF orientation, fits inside the requested box
 * without enlarging, keeps animation for GIF and WebP, and refuses what it cannot or must not do
 * with a ConversionFailure: not an image, too many pixels to decode or to write, a bad option.
 */
export async function convertImage(input: Uint8Array, request: ImageConversionRequest): Promise<ConvertedImage> {
  if (input.byteLength === 0) throw new ConversionFailure('unreadable', 'the file is empty');
  const animated = request.to === 'gif' || request.to === 'webp';
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ConversionFailure('unreadable', `${request.filename} is not an image this service can read`);
  }
  const width = metadata.width ?? 0;
  const height = metadata.pageHeight ?? metadata.height ?? 0;
  if (!width || !height) throw new ConversionFailure('unreadable', `${request.filename} is not an image this service can read`);
  if (width * height > MAX_INPUT_PIXELS) {
    throw new ConversionFailure(
      'too-large',
      `the image is ${width} × ${height} pixels (${megapixels(width * height)}); at most ${megapixels(MAX_INPUT_PIXELS)} are converted`,
    );
  }
  const frames = animated ? (metadata.pages ?? 1) : 1;
  const out = fitted(width, height, request);
  const written = out.width * out.height * frames;
  if (written > MAX_OUTPUT_PIXELS[request.to]) {
    throw new ConversionFailure(
      'too-large',
      `${request.to.toUpperCase()} of ${out.width} × ${out.height} pixels${frames > 1 ? ` × ${frames} frames` : ''} is more than this service writes (${megapixels(MAX_OUTPUT_PIXELS[request.to])}); choose a smaller size`,
    );
  }
  if (request.quality != null && (!Number.isInteger(request.quality) || request.quality < 1 || request.quality > 100)) {
    throw new ConversionFailure('unsupported', 'quality must be a whole number from 1 to 100');
  }
  let image = sharp(input, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, animated: animated && frames > 1 }).timeout({
    seconds: SHARP_TIMEOUT_SECONDS,
  });
  image = image.rotate();
  if (request.width || request.height) {
    image = image.resize({
      width: request.width ?? undefined,
      height: request.height ?? undefined,
      fit: 'inside',
      withoutEnlargement: true,
    });
  }
  const opaque = request.to === 'jpg' || request.to === 'jpeg';
  if (opaque || request.background) {
    try {
      image = image.flatten({ background: request.background ?? '#ffffff' });
    } catch {
      throw new ConversionFailure('unsupported', `background must be a colour such as #ffffff or white (got ${request.background})`);
    }
  }
  try {
    const { data, info } = await encode(image, request.to, request.quality ?? undefined).toBuffer({ resolveWithObject: true });
    const target = TARGET_FORMATS[request.to === 'jpeg' ? 'jpg' : request.to]!;
    return {
      data,
      filename: outputFilename(request.filename, request.to),
      mediaType: target.mediaType,
      width: info.width,
      height: info.pageHeight ?? info.height,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/timeout/i.test(message))
      throw new ConversionFailure('timeout', `the conversion took longer than ${SHARP_TIMEOUT_SECONDS} s and was stopped`);
    throw new ConversionFailure('unreadable', `${request.filename} could not be converted: ${message.split('\n')[0]}`);
  }
}
