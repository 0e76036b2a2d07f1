import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  DeleteProductImageMessage,
  GetProductImageMessage,
  StoreProductImageMessage,
  SUBJECTS,
  type ProductImageData,
  type ProductView,
} from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { ProductImagesService } from './product-images.service.js';

/** NATS handlers of product images: translate only. */
@Controller()
export class ProductImagesController {
  constructor(@Inject(ProductImagesService) private readonly images: ProductImagesService) {}

  @Handles(SUBJECTS.commerce.productImageStore)
  store(@Payload() input: StoreProductImageMessage): Promise<ProductView> {
    return this.images.store(input);
  }

  @Handles(SUBJECTS.commerce.productImageDelete)
  remove(@Payload() input: DeleteProductImageMessage): Promise<ProductView> {
    return this.images.remove(input);
  }

  @Handles(SUBJECTS.commerce.productImageGet)
  get(@Payload() input: GetProductImageMessage): Promise<ProductImageData> {
    return this.images.get(input);
  }
}
