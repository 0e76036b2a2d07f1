import { describe, expect, it } from '@jest/globals';
import { ApiError, NetworkError } from '../../shared/api';
import { IMAGE_TEXTS, imageFileProblem, imageUploadText, PRODUCT_IMAGE_MAX_BYTES } from './product-image-rules';

describe('imageFileProblem', () => {
  it('takes PNG, JPEG, WebP and GIF up to 10 MB', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/webp', 'image/gif'])
      expect(imageFileProblem({ size: 1000, type })).toBeUndefined();
    expect(imageFileProblem({ size: PRODUCT_IMAGE_MAX_BYTES, type: 'image/png' })).toBeUndefined();
    // A pasted picture may come without a type: the server judges it by its bytes.
    expect(imageFileProblem({ size: 1000, type: '' })).toBeUndefined();
  });

  it('says in plain words what is wrong', () => {
    expect(imageFileProblem({ size: PRODUCT_IMAGE_MAX_BYTES + 1, type: 'image/jpeg' })).toBe(IMAGE_TEXTS.tooBig);
    expect(imageFileProblem({ size: 1000, type: 'text/plain' })).toBe(IMAGE_TEXTS.notImage);
    expect(imageFileProblem({ size: 1000, type: 'image/svg+xml' })).toBe(IMAGE_TEXTS.notImage);
    expect(imageFileProblem({ size: 0, type: 'image/png' })).toBe(IMAGE_TEXTS.damaged);
  });
});

describe('imageUploadText', () => {
  const fallback = (e: unknown) => `house: ${String(e)}`;
  it('turns the server refusals into plain words', () => {
    expect(imageUploadText(new ApiError(413, 'PAYLOAD_TOO_LARGE', 'the request body is larger than this server accepts'), fallback)).toBe(
      IMAGE_TEXTS.tooBig,
    );
    const bad = (detail: string) => imageUploadText(new ApiError(400, 'VALIDATION_FAILED', detail), fallback);
    expect(bad('the file is not a PNG, JPEG, WebP or GIF image (judged by its content, not its name)')).toBe(IMAGE_TEXTS.notImage);
    expect(bad('the image could not be read: the file is damaged or incomplete')).toBe(IMAGE_TEXTS.damaged);
    expect(bad('the image is too large in pixels: at most 50 megapixels')).toBe(IMAGE_TEXTS.tooManyPixels);
  });

  it('leaves other failures to the house error text', () => {
    const notFound = new ApiError(404, 'NOT_FOUND', 'no such product');
    expect(imageUploadText(notFound, fallback)).toBe(`house: ${String(notFound)}`);
    const offline = new NetworkError(new Error('x'));
    expect(imageUploadText(offline, fallback)).toBe(`house: ${String(offline)}`);
  });
});
