import type { ShippingOption, ShippingService } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { UploadedImageSet } from './product-image.entity.js';

export interface ProductShipping {
  services: ShippingService[];
  options: ShippingOption[];
}

/** A product a provider sells through one of its services. */
@Entity({ name: 'product' })
export class ProductEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'service_id', type: 'uuid' })
  serviceId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  /** Cents, 50 … 99,999,999 (a check constraint). */
  @Column({ type: 'integer' })
  price!: number;

  @Column({ type: 'text', default: 'USD' })
  currency!: 'USD';

  @Column({ type: 'text', nullable: true })
  image!: string | null;

  /** The image uploaded to the site (its sizes are in product_image); null when none. */
  @Column({ name: 'uploaded_image', type: 'jsonb', nullable: true })
  uploadedImage!: UploadedImageSet | null;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ type: 'jsonb', nullable: true })
  shipping!: ProductShipping | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  modified!: Date;
}
