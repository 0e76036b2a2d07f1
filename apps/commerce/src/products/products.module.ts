import { Module } from '@nestjs/common';
import { IdentityModule } from '../notify/identity.module.js';
import { ServicesModule } from '../services/services.module.js';
import { ProductsController } from './products.controller.js';
import { ProductsRepository } from './products.repository.js';
import { ProductsService } from './products.service.js';
import { StorefrontService } from './storefront.service.js';

/** Products and the public storefront (the `product` table): exports ProductsService. */
@Module({
  imports: [ServicesModule, IdentityModule],
  controllers: [ProductsController],
  providers: [ProductsRepository, ProductsService, StorefrontService],
  exports: [ProductsService],
})
export class ProductsModule {}
