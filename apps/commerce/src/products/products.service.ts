import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { createUnderKey, type TransactionManager } from '@tinkerdesk/persistence';
import { AppError, CURRENCY, type ProductView, type SaveProductMessage, type Vendor } from '@tinkerdesk/contracts';
import { ProviderServicesService, type ServiceRow } from '../services/provider-services.service.js';
import { ProductImagesRepository } from './product-images.repository.js';
import { productImagesView } from './product-image-view.js';
import { ProductsRepository, type ProductRow } from './products.repository.js';

export type { ProductRow };

export function toProductView(p: ProductRow): ProductView {
  return {
    id: p.id,
    serviceId: p.serviceId,
    userId: p.userId,
    name: p.name,
    description: p.description,
    price: p.price,
    currency: p.currency,
    // At most one is set: uploading clears the https URL, saving a URL (or null) removes the upload.
    image: p.uploadedImage ? productImagesView(p.id, p.uploadedImage).medium.url : p.image,
    images: p.uploadedImage ? productImagesView(p.id, p.uploadedImage) : null,
    active: p.active,
    shipping: p.shipping,
    created: p.created.toISOString(),
    modified: p.modified.toISOString(),
  };
}

/** The service (or what was read of it) when it belongs to `userId`; NOT_FOUND otherwise, exactly as for a missing one. */
function theUsers<S extends { userId: string }>(service: S | null, userId: string): S {
  if (!service || service.userId !== userId) throw new AppError('NOT_FOUND', 'no such service');
  return service;
}

/**
 * Whether an order refers to a product (the orders feature's rows), asked in the transaction that
 * deletes it: OrdersService registers it (useOrders), as the orders feature depends on this one.
 */
export interface ProductOrders {
  isOrdered(manager: TransactionManager, productId: string): Promise<boolean>;
}

/** Products of a provider's service: public reads (active only, but for the owner), owner-only changes. */
@Injectable()
export class ProductsService {
  // Until the orders feature registers, no order refers to a product.
  private orders: ProductOrders = { isOrdered: () => Promise.resolve(false) };

  constructor(
    @Inject(ProductsRepository) private readonly products: ProductsRepository,
    @Inject(ProviderServicesService) private readonly services: ProviderServicesService,
    @Inject(ProductImagesRepository) private readonly images: ProductImagesRepository,
  ) {}

  /** The orders feature registers how to tell whether a product was ordered (ProductOrders). */
  useOrders(orders: ProductOrders): void {
    this.orders = orders;
  }

  /** A product by id, active or not (other features read products only through here). */
  find(id: string): Promise<ProductRow | null> {
    return this.products.find(id);
  }

  /** The service when it belongs to `userId`; NOT_FOUND otherwise, exactly as for a missing one. */
  async serviceOf(userId: string, serviceId: string): Promise<ServiceRow> {
    return theUsers(await this.services.find(serviceId), userId);
  }

  async list(userId: string, serviceId: string, viewerId: string | undefined, servicetype: Vendor | undefined): Promise<ProductView[]> {
    // The products are read beside the service's check (one round trip instead of two after each other),
    // and answered only once the service is the user's: the check still decides. The products' statement,
    // the longer of the two, is sent first; the check reads only the owner and the vendor.
    const [products, owner] = await Promise.all([
      this.products.listByService(serviceId, viewerId !== userId),
      this.services.owner(serviceId),
    ]);
    const service = theUsers(owner, userId);
    if (servicetype && service.vendor !== servicetype) return [];
    return products.map(toProductView);
  }

  /** A product of the service; an inactive one only for its owner. */
  async get(userId: string, serviceId: string, productId: string, viewerId?: string): Promise<ProductRow> {
    await this.serviceOf(userId, serviceId);
    const product = await this.products.find(productId);
    if (!product || product.serviceId !== serviceId || (!product.active && viewerId !== userId))
      throw new AppError('NOT_FOUND', 'no such product');
    return product;
  }

  async save(input: SaveProductMessage): Promise<ProductView> {
    const service = await this.serviceOf(input.ownerId, input.serviceId);
    const existing = input.productId ? await this.get(input.ownerId, input.serviceId, input.productId, input.ownerId) : undefined;
    const name = (input.name ?? existing?.name)?.trim();
    const price = input.price ?? existing?.price;
    if (!name) throw new AppError('VALIDATION_FAILED', 'name is required (at most 120 characters)');
    if (price === undefined) throw new AppError('VALIDATION_FAILED', 'price is required: a whole number of cents');
    const shipping = input.shipping !== undefined ? input.shipping : (existing?.shipping ?? null);
    if (service.vendor === 'mail' && !shipping) {
      throw new AppError('VALIDATION_FAILED', 'a mail product needs shipping: the shipping services (and options) buyers may choose');
    }
    if (service.vendor !== 'mail' && input.shipping !== undefined) {
      throw new AppError('VALIDATION_FAILED', `shipping is only for mail products (this service sells ${service.vendor})`);
    }
    const saved = await this.products.upsert(
      {
        id: existing?.id ?? randomUUID(),
        serviceId: service.id,
        userId: service.userId,
        name,
        description: (input.description ?? existing?.description ?? '').trim(),
        price,
        currency: CURRENCY,
        image: input.image !== undefined ? input.image : (existing?.image ?? null),
        active: input.active ?? existing?.active ?? true,
        shipping: service.vendor === 'mail' && shipping ? { services: [...shipping.services], options: [...shipping.options] } : null,
      },
      existing ? undefined : createUnderKey('product.create', input.ownerId, input),
    );
    // An https URL (or null) sent replaces an uploaded image: then only that URL is shown.
    if (input.image !== undefined && saved.uploadedImage) return toProductView((await this.images.clear(saved.id, saved.userId)) ?? saved);
    return toProductView(saved);
  }

  /** Deletes the product, or deactivates it when orders refer to it (they keep what was bought). */
  async remove(ownerId: string, serviceId: string, productId: string): Promise<{ success: true; deleted: boolean }> {
    const product = await this.get(ownerId, serviceId, productId, ownerId);
    if (await this.products.deleteIfUnordered(product.id, (m, id) => this.orders.isOrdered(m, id))) return { success: true, deleted: true };
    await this.products.upsert({ ...product, active: false });
    return { success: true, deleted: false };
  }
}
