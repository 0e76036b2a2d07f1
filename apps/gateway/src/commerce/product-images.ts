import {
  AppError,
  PRODUCT_IMAGE_SIZE_NAMES,
  PRODUCT_IMAGE_SIZES,
  PRODUCT_IMAGE_STORED_MAX_BYTES,
  type ProductImageSize,
} from '@tinkerdesk/contracts';
import sharp, { type OutputInfo } from 'sharp';
import { imageFormat, PASS_IMAGE_MAX_PIXELS } from '../passes/pass-images.js';

/** The largest uploaded product image file, in bytes (413 above). */
export const PRODUCT_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** The most pixels an uploaded image may declare (as for pass images): larger ones are refused before they are decoded. */
export const PRODUCT_IMAGE_MAX_PIXELS = PASS_IMAGE_MAX_PIXELS;

/** WebP qualities tried in turn until all sizes fit in one message together. */
const QUALITIES = [82, 65, 45];

export interface ProductImageVariant {
  size: ProductImageSize;
  webp: Buffer;
  width: number;
  height: number;
}

/**
 * An uploaded product image made into its sizes: its type checked by its bytes, decoded once by sharp
 * with a bound on the pixels it may declare (decompression bombs), turned upright (EXIF), then each
 * size fitted inside its width (and twice that in height), never enlarged, encoded as WebP without
 * metadata. Every refusal says in plain words what is wrong: 400, or 413 when even the smallest
 * encoding is too large to store.
 */
export async function prepareProductImage(bytes: Buffer): Promise<ProductImageVariant[]> {
  if (bytes.length === 0) throw new AppError('VALIDATION_FAILED', 'the image file is empty');
  if (!imageFormat(bytes)) {
    throw new AppError('VALIDATION_FAILED', 'the file is not a PNG, JPEG, WebP or GIF image (judged by its content, not its name)');
  }
  const largest = PRODUCT_IMAGE_SIZES.large;
  let upright: { data: Buffer; info: OutputInfo };
  try {
    upright = await sharp(bytes, { limitInputPixels: PRODUCT_IMAGE_MAX_PIXELS, failOn: 'error', animated: false })
      .rotate()
      .resize({ width: largest, height: largest * 2, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) {
      throw new AppError(
        'VALIDATION_FAILED',
        `the image is too large in pixels: at most ${PRODUCT_IMAGE_MAX_PIXELS / 1_000_000} megapixels`,
      );
    }
    throw new AppError('VALIDATION_FAILED', 'the image could not be read: the file is damaged or incomplete');
  }
  const { width, height, channels } = upright.info;
  const encode = (size: ProductImageSize, quality: number) =>
    sharp(upright.data, { raw: { width, height, channels } })
      .resize({ width: PRODUCT_IMAGE_SIZES[size], height: PRODUCT_IMAGE_SIZES[size] * 2, fit: 'inside', withoutEnlargement: true })
      .webp({ quality, effort: 4 })
      .toBuffer({ resolveWithObject: true });
  for (const quality of QUALITIES) {
    const variants: ProductImageVariant[] = [];
    for (const size of PRODUCT_IMAGE_SIZE_NAMES) {
      const { data, info } = await encode(size, quality);
      variants.push({ size, webp: data, width: info.width, height: info.height });
    }
    if (variants.reduce((sum, v) => sum + v.webp.length, 0) <= PRODUCT_IMAGE_STORED_MAX_BYTES) return variants;
  }
  throw new AppError('PAYLOAD_TOO_LARGE', 'the image is too detailed to store even once resized: use a simpler picture');
}
