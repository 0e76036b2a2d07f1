import { productImagePath, type ProductImages, type ProductImageSize } from '@tinkerdesk/contracts';
import type { UploadedImageSet } from './product-image.entity.js';

/** The sizes' public URLs (immutable: versioned) of an uploaded image set. */
export function productImagesView(productId: string, set: UploadedImageSet): ProductImages {
  const variant = (size: ProductImageSize) => ({ url: productImagePath(productId, size, set.version), ...set.sizes[size] });
  return { version: set.version, small: variant('small'), medium: variant('medium'), large: variant('large') };
}
