import { AppError, PASS_IMAGE_SLOTS, PASS_IMAGE_STORED_MAX_BYTES, type PassImageSlot } from '@tinkerdesk/contracts';
import sharp from 'sharp';

/** The largest uploaded image file, in bytes (413 above). */
export const PASS_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** The most pixels an uploaded image may declare: larger ones are refused before they are decoded (decompression bombs). */
export const PASS_IMAGE_MAX_PIXELS = 50_000_000;

/** The image formats a pass accepts, by their first bytes. */
const FORMATS: Array<{ name: string; matches: (b: Buffer) => boolean }> = [
  { name: 'PNG', matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { name: 'JPEG', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { name: 'GIF', matches: (b) => ['GIF87a', 'GIF89a'].includes(b.toString('latin1', 0, 6)) },
  { name: 'WebP', matches: (b) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP' },
];

/** The format of an image by its magic bytes (PNG, JPEG, GIF or WebP), or undefined. */
export function imageFormat(bytes: Buffer): string | undefined {
  return FORMATS.find((f) => f.matches(bytes))?.name;
}

export interface PreparedImage {
  png: Buffer;
  width: number;
  height: number;
}

/**
 * An uploaded image made ready for a pass slot: its type checked by its bytes, decoded by sharp with
 * a bound on the pixels it may declare, turned upright (EXIF), resized to fit the slot's box and
 * re-encoded as PNG, small enough for one NATS message (a palette PNG when the full one is not).
 * Every refusal is a 400 that says what is wrong.
 */
export async function preparePassImage(slot: PassImageSlot, bytes: Buffer): Promise<PreparedImage> {
  if (bytes.length === 0) throw new AppError('VALIDATION_FAILED', `the ${slot} file is empty`);
  if (!imageFormat(bytes)) {
    throw new AppError('VALIDATION_FAILED', `the ${slot} file is not a PNG, JPEG, WebP or GIF image (judged by its content, not its name)`);
  }
  const box = PASS_IMAGE_SLOTS[slot];
  const encode = async (palette: boolean) =>
    sharp(bytes, { limitInputPixels: PASS_IMAGE_MAX_PIXELS, failOn: 'error', animated: false })
      .rotate()
      .resize({ width: box.width, height: box.height, fit: 'inside', withoutEnlargement: true })
      .png(palette ? { palette: true, compressionLevel: 9, effort: 10 } : { compressionLevel: 9, adaptiveFiltering: true })
      .toBuffer({ resolveWithObject: true });
  let result: Awaited<ReturnType<typeof encode>>;
  try {
    result = await encode(false);
    if (result.data.length > PASS_IMAGE_STORED_MAX_BYTES) result = await encode(true);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) {
      throw new AppError(
        'VALIDATION_FAILED',
        `the ${slot} image is too large in pixels: at most ${PASS_IMAGE_MAX_PIXELS / 1_000_000} megapixels (it is resized to ${box.width}x${box.height} anyway)`,
      );
    }
    throw new AppError('VALIDATION_FAILED', `the ${slot} image could not be decoded: the file is damaged or incomplete`);
  }
  if (result.data.length > PASS_IMAGE_STORED_MAX_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `the ${slot} image is too large even once resized: use a simpler picture`);
  }
  return { png: result.data, width: result.info.width, height: result.info.height };
}
