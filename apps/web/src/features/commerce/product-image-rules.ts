/**
 * The rules of the product image field, in plain words: what the browser can tell before sending
 * (size, type) and what the server's refusals mean to a seller (too big, not an image, damaged).
 */
import { ApiError } from '../../shared/api';

/** The largest image file the server takes (PRODUCT_UPLOAD_MAX_BYTES of the gateway). */
export const PRODUCT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

const TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

export const IMAGE_TEXTS = {
  tooBig: 'This image is too big: choose one of at most 10 MB.',
  notImage: 'This file is not an image: choose a PNG, JPEG, WebP or GIF picture.',
  damaged: 'This image is damaged or incomplete: choose another file.',
  tooManyPixels: 'This image has too many pixels (at most 50 megapixels): choose a smaller one.',
} as const;

/** What is wrong with a chosen file that the browser can see, or undefined. */
export function imageFileProblem(file: { size: number; type: string }): string | undefined {
  if (file.type && !TYPES.includes(file.type)) return IMAGE_TEXTS.notImage;
  if (file.size > PRODUCT_IMAGE_MAX_BYTES) return IMAGE_TEXTS.tooBig;
  if (file.size === 0) return IMAGE_TEXTS.damaged;
  return undefined;
}

/** A failed upload in plain words; other failures keep the house error text. */
export function imageUploadText(error: unknown, fallback: (error: unknown) => string): string {
  if (!(error instanceof ApiError)) return fallback(error);
  if (error.status === 413) return IMAGE_TEXTS.tooBig;
  const detail = error.detail ?? '';
  if (/not a PNG, JPEG, WebP or GIF|empty/.test(detail)) return IMAGE_TEXTS.notImage;
  if (/damaged|incomplete/.test(detail)) return IMAGE_TEXTS.damaged;
  if (/too large in pixels/.test(detail)) return IMAGE_TEXTS.tooManyPixels;
  return fallback(error);
}
