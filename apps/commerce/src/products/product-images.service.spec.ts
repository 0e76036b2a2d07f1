import { describe, expect, it } from '@jest/globals';
import { AppError, PRODUCT_IMAGE_STORED_MAX_BYTES, type ProductImageSize, type StoreProductImageMessage } from '@tinkerdesk/contracts';
import { imageSet } from './product-images.service.js';

const PRODUCT = '6f1c2a52-8d3e-4b8a-9a57-0b6f5d9b1a01';
const OWNER = '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';

/** A few bytes that start like WebP (RIFF....WEBP), `n` long. */
const webp = (n: number, fill = 1): string => {
  const b = Buffer.alloc(Math.max(n, 12), fill);
  b.write('RIFF', 0, 'latin1');
  b.write('WEBP', 8, 'latin1');
  return b.toString('base64');
};

function message(variants: Array<{ size: ProductImageSize; data?: string }>): StoreProductImageMessage {
  return {
    ownerId: OWNER,
    productId: PRODUCT,
    variants: variants.map((v, i) => ({ size: v.size, width: 10 * (i + 1), height: 5 * (i + 1), data: v.data ?? webp(40, i + 1) })),
  };
}

const all = (data?: string) =>
  message([
    { size: 'large', data },
    { size: 'small', data },
    { size: 'medium', data },
  ]);

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('imageSet', () => {
  it('makes one row per size, each with the SHA-256 of its bytes, all sharing a version derived from them', () => {
    const { set, rows } = imageSet(PRODUCT, all());
    expect(rows.map((r) => r.size)).toEqual(['small', 'medium', 'large']);
    expect(new Set(rows.map((r) => r.version))).toEqual(new Set([set.version]));
    expect(set.version).toMatch(/^[0-9a-f]{16}$/);
    for (const row of rows)
      expect(row).toMatchObject({ productId: PRODUCT, contentType: 'image/webp', etag: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // Dimensions follow the size named, whatever the order sent.
    expect(set.sizes).toEqual({ small: { width: 20, height: 10 }, medium: { width: 30, height: 15 }, large: { width: 10, height: 5 } });
    // The same bytes give the same version; other bytes another.
    expect(imageSet(PRODUCT, all()).set.version).toBe(set.version);
    expect(imageSet(PRODUCT, all(webp(41))).set.version).not.toBe(set.version);
  });

  it('needs each size exactly once', () => {
    expect(refusal(() => imageSet(PRODUCT, message([{ size: 'small' }, { size: 'small' }, { size: 'large' }]))).detail).toMatch(
      /each size once: small, medium, large/,
    );
  });

  it('keeps only WebP', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString('base64');
    expect(refusal(() => imageSet(PRODUCT, all(png))).detail).toMatch(/not WebP/);
  });

  it('refuses sizes together larger than one message carries (413)', () => {
    const third = Math.ceil(PRODUCT_IMAGE_STORED_MAX_BYTES / 3) + 1;
    expect(refusal(() => imageSet(PRODUCT, all(webp(third)))).code).toBe('PAYLOAD_TOO_LARGE');
    expect(() => imageSet(PRODUCT, all(webp(third - 2)))).not.toThrow();
  });
});
