import { Module } from '@nestjs/common';
import { IdentityModule } from '../notify/identity.module.js';
import { ServicesModule } from '../services/services.module.js';
import { ProductImagesController } from './product-images.controller.js';
import { ProductImagesRepository } from './product-images.repository.js';
import { ProductImagesService } from './product-images.service.js';
import { ProductsController } from './products.controller.js';
import { ProductsRepository } from './products.repository.js';
import { ProductsService } from './products.service.js';
import { StorefrontService } from './storefront.service.js';

/** Products, their uploaded images and the public storefront (the `product` and `product_image` tables): exports ProductsService. */
@Module({
  imports: [ServicesModule, IdentityModule],
  controllers: [ProductsController, ProductImagesController],
  providers: [ProductsRepository, ProductsService, StorefrontService, ProductImagesRepository, ProductImagesService],
  exports: [ProductsService],
})
export class ProductsModule {}
