import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  PRODUCT_IMAGE_SIZE_NAMES,
  PRODUCT_IMAGE_STORED_MAX_BYTES,
  type DeleteProductImageMessage,
  type GetProductImageMessage,
  type ProductImageData,
  type ProductView,
  type StoreProductImageMessage,
} from '@tinkerdesk/contracts';
import type { UploadedImageSet } from './product-image.entity.js';
import { ProductImagesRepository, type ProductImageRow } from './product-images.repository.js';
import { toProductView } from './products.service.js';

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** WebP by its first bytes: the gateway made these, and the store checks before it keeps them. */
const isWebp = (b: Buffer): boolean => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP';

/**
 * The sizes of a product's uploaded image as rows and the set they form: one of each size, WebP,
 * together at most PRODUCT_IMAGE_STORED_MAX_BYTES; the version is derived from their contents.
 */
export function imageSet(productId: string, message: StoreProductImageMessage): { set: UploadedImageSet; rows: ProductImageRow[] } {
  const sizes = message.variants.map((v) => v.size);
  if (new Set(sizes).size !== PRODUCT_IMAGE_SIZE_NAMES.length || !PRODUCT_IMAGE_SIZE_NAMES.every((s) => sizes.includes(s))) {
    throw new AppError('VALIDATION_FAILED', `the image needs each size once: ${PRODUCT_IMAGE_SIZE_NAMES.join(', ')}`);
  }
  const decoded = PRODUCT_IMAGE_SIZE_NAMES.map((size) => {
    const variant = message.variants.find((v) => v.size === size)!;
    const bytes = Buffer.from(variant.data, 'base64');
    if (!isWebp(bytes)) throw new AppError('VALIDATION_FAILED', `the ${size} image is not WebP`);
    return { size, bytes, etag: sha256(bytes), width: variant.width, height: variant.height };
  });
  const total = decoded.reduce((sum, d) => sum + d.bytes.length, 0);
  if (total > PRODUCT_IMAGE_STORED_MAX_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `the image sizes take ${total} bytes together: at most ${PRODUCT_IMAGE_STORED_MAX_BYTES}`);
  }
  const version = sha256(decoded.map((d) => d.etag).join(':')).slice(0, 16);
  const set: UploadedImageSet = {
    version,
    sizes: {
      small: { width: decoded[0]!.width, height: decoded[0]!.height },
      medium: { width: decoded[1]!.width, height: decoded[1]!.height },
      large: { width: decoded[2]!.width, height: decoded[2]!.height },
    },
  };
  const rows = decoded.map((d) => ({ productId, version, contentType: 'image/webp' as const, ...d }));
  return { set, rows };
}

/** Images uploaded to the site for a product: the owner replaces or removes them; anyone reads them. */
@Injectable()
export class ProductImagesService {
  constructor(@Inject(ProductImagesRepository) private readonly images: ProductImagesRepository) {}

  async store(message: StoreProductImageMessage): Promise<ProductView> {
    const { set, rows } = imageSet(message.productId, message);
    const product = await this.images.replace(message.productId, message.ownerId, set, rows);
    if (!product) throw new AppError('NOT_FOUND', 'no such product');
    return toProductView(product);
  }

  async remove(message: DeleteProductImageMessage): Promise<ProductView> {
    const product = await this.images.clear(message.productId, message.ownerId);
    if (!product) throw new AppError('NOT_FOUND', 'no such product');
    return toProductView(product);
  }

  async get(message: GetProductImageMessage): Promise<ProductImageData> {
    const image = await this.images.find(message.productId, message.size, message.version);
    if (!image) throw new AppError('NOT_FOUND', 'no such image');
    return { data: image.bytes.toString('base64'), contentType: image.contentType, etag: image.etag, version: image.version };
  }
}
