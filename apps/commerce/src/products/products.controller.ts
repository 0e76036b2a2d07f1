import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  DeleteProductMessage,
  GetProductMessage,
  ListProductsMessage,
  SaveProductMessage,
  StorefrontMessage,
  SUBJECTS,
  type ProductView,
  type StorefrontView,
} from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { ProductsService, toProductView } from './products.service.js';
import { StorefrontService } from './storefront.service.js';

/** NATS handlers: translate only. */
@Controller()
export class ProductsController {
  constructor(
    @Inject(ProductsService) private readonly products: ProductsService,
    @Inject(StorefrontService) private readonly storefronts: StorefrontService,
  ) {}

  @Handles(SUBJECTS.commerce.productList)
  list(@Payload() input: ListProductsMessage): Promise<ProductView[]> {
    return this.products.list(input.userId, input.serviceId, input.viewerId, input.servicetype);
  }

  @Handles(SUBJECTS.commerce.productGet)
  async get(@Payload() input: GetProductMessage): Promise<ProductView> {
    return toProductView(await this.products.get(input.userId, input.serviceId, input.productId, input.viewerId));
  }

  @Handles(SUBJECTS.commerce.productSave)
  save(@Payload() input: SaveProductMessage): Promise<ProductView> {
    return this.products.save(input);
  }

  @Handles(SUBJECTS.commerce.productDelete)
  remove(@Payload() input: DeleteProductMessage): Promise<{ success: true; deleted: boolean }> {
    return this.products.remove(input.ownerId, input.serviceId, input.productId);
  }

  @Handles(SUBJECTS.commerce.storefrontGet)
  storefront(@Payload() input: StorefrontMessage): Promise<StorefrontView> {
    return this.storefronts.get(input.userId, input.serviceId);
  }
}
