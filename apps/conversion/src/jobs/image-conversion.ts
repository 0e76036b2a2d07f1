import sharp from 'sharp';
import type { ImageTarget } from '@tinkerdesk/contracts';

export class UnconvertibleInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnconvertibleInputError';
  }
}

const MEDIA_TYPES: Record<ImageTarget, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  tiff: 'image/tiff',
  gif: 'image/gif',
};

export interface ImageConversionRequest {
  filename: string;
  to: ImageTarget;
  width?: number | null;
  height?: number | null;
}

export interface ConvertedImage {
  data: Buffer;
  filename: string;
  mediaType: string;
  width: number;
  height: number;
}

/** The input's name with the new extension ("photo.final.png" → "photo.final.webp"). */
export function outputFilename(filename: string, to: ImageTarget): string {
  const base = filename.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'converted';
  return `${base}.${to === 'jpeg' ? 'jpg' : to}`;
}

/**
 * Converts an image with sharp (libvips): honours EXIF orientation, fits inside the requested box
 * without enlarging, and refuses input that is not an image (UnconvertibleInputError).
 */
export async function convertImage(input: Uint8Array, request: ImageConversionRequest): Promise<ConvertedImage> {
  let image = sharp(input, { failOn: 'error', limitInputPixels: 100_000_000, animated: request.to === 'gif' || request.to === 'webp' });
  try {
    await image.metadata();
  } catch {
    throw new UnconvertibleInputError(`${request.filename} is not an image this service can read`);
  }
  image = image.rotate();
  if (request.width || request.height) {
    image = image.resize({
      width: request.width ?? undefined,
      height: request.height ?? undefined,
      fit: 'inside',
      withoutEnlargement: true,
    });
  }
  const format = request.to === 'jpg' ? 'jpeg' : request.to;
  if (format === 'jpeg') image = image.flatten({ background: '#ffffff' });
  try {
    const { data, info } = await image.toFormat(format).toBuffer({ resolveWithObject: true });
    return {
      data,
      filename: outputFilename(request.filename, request.to),
      mediaType: MEDIA_TYPES[request.to],
      width: info.width,
      height: info.height,
    };
  } catch (error) {
    throw new UnconvertibleInputError(
      `${request.filename} could not be converted: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
