import type { ProductImageSize } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The version and dimensions of a product's uploaded image set (the product row's `uploaded_image`). */
export interface UploadedImageSet {
  version: string;
  sizes: Record<ProductImageSize, { width: number; height: number }>;
}

/** One size of a product's uploaded image (WebP): the site's own storage. */
@Entity({ name: 'product_image' })
export class ProductImageEntity {
  @PrimaryColumn({ name: 'product_id', type: 'uuid' })
  productId!: string;

  @PrimaryColumn({ type: 'text' })
  size!: ProductImageSize;

  /** Shared by every size of one upload: the versioned URLs carry it. */
  @Column({ type: 'text' })
  version!: string;

  @Column({ type: 'bytea' })
  bytes!: Buffer;

  @Column({ name: 'content_type', type: 'text', default: 'image/webp' })
  contentType!: 'image/webp';

  /** SHA-256 of the bytes, hex. */
  @Column({ type: 'text' })
  etag!: string;

  @Column({ type: 'integer' })
  width!: number;

  @Column({ type: 'integer' })
  height!: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;
}
