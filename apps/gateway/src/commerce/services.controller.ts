import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AppError,
  ProductDto,
  ProductParamsDto,
  ProductsParamsDto,
  ProductsQueryDto,
  ServiceDto,
  ServiceIdParamsDto,
  ServiceParamsDto,
  SUBJECTS,
  ValidateAccountDto,
  type ResponseMap,
} from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { JsonBody } from '../http/json-body.js';
import { BearerGuard, CurrentSession, OptionalBearerGuard, OptionalSession, type AuthenticatedSession } from '../auth/bearer.guard.js';
import { ApiAnswer, ApiErrors, ApiOptionalAuth } from '../http/api-docs.js';
import { ApiCreateIdempotencyKey, IdempotencyKey, withKey } from '../http/idempotency.js';
import { ProfileCache } from '../users/profile-cache.js';

/** Only the account itself may change its services: another guid answers like an unknown one. */
function ownGuid(guid: string, session: AuthenticatedSession): void {
  if (guid !== session.userId) throw new AppError('NOT_FOUND', 'no such user');
}

/**
 * Provider services and their products (docs/api.md#selling-services-products-orders-payment-and-receipts). Services and product changes are the
 * owner's; the products and the public page are anyone's (inactive products only for the owner).
 */
@ApiTags('services')
@Controller('v1/users')
export class ServicesController {
  constructor(
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(ProfileCache) private readonly profiles: ProfileCache,
  ) {}

  @Post(':guid/services')
  @HttpCode(201)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Create a service {name, provider, vendor, account, ...extras}; the provider must accept the account',
    description:
      'provider: stripe (account: a connected account acct_...) or sandbox (account: sandbox_<name>); vendor: digital, service or mail. ' +
      'Extras: statementDescriptor (Stripe), supportEmail, shippingOrigin (required for mail).',
  })
  @ApiCreateIdempotencyKey()
  @ApiAnswer(201, 'Service')
  @ApiErrors('NOT_FOUND', 'ACCOUNT_INVALID', 'UPSTREAM_ERROR', 'CONFLICT')
  async create(
    @Param() params: ServiceParamsDto,
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: ServiceDto,
    @IdempotencyKey() key: string | undefined,
  ): Promise<ResponseMap['Service']> {
    ownGuid(params.guid, session);
    const service = await this.rpc.send(SUBJECTS.commerce.serviceSave, { ...body, userId: session.userId, ...withKey(key) }, 10_000);
    this.profiles.forget(session.userId);
    return { success: true, service };
  }

  @Post(':guid/services/:serviceId')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Update one of your services (the whole service, as when creating it)' })
  @ApiAnswer(200, 'Service')
  @ApiErrors('NOT_FOUND', 'ACCOUNT_INVALID', 'UPSTREAM_ERROR')
  async update(
    @Param() params: ServiceIdParamsDto,
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: ServiceDto,
  ): Promise<ResponseMap['Service']> {
    ownGuid(params.guid, session);
    const message = { ...body, userId: session.userId, serviceId: params.serviceId };
    return { success: true, service: await this.rpc.send(SUBJECTS.commerce.serviceSave, message, 10_000) };
  }

  @Post(':guid/validate')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Ask the payment provider whether an account exists and can take charges (valid, reason)' })
  @ApiAnswer(200, 'AccountValidation')
  @ApiErrors('NOT_FOUND', 'UPSTREAM_ERROR')
  async validate(
    @Param() params: ServiceParamsDto,
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: ValidateAccountDto,
  ): Promise<ResponseMap['AccountValidation']> {
    ownGuid(params.guid, session);
    return { success: true, ...(await this.rpc.send(SUBJECTS.commerce.accountValidate, body, 10_000)) };
  }

  @Get(':id/services/:sid')
  @ApiOperation({ summary: "A provider's public page: the service, the seller's name and the active products" })
  @ApiAnswer(200, 'Storefront')
  @ApiErrors('NOT_FOUND')
  async storefront(@Param() params: ProductsParamsDto): Promise<JsonBody<ResponseMap['Storefront']>> {
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.commerce.storefrontGet, { userId: params.id, serviceId: params.sid }));
  }

  @Get(':id/services/:sid/products')
  @UseGuards(OptionalBearerGuard)
  @ApiOptionalAuth()
  @ApiOperation({
    summary: "A service's products (active ones; the owner, signed in, sees all); servicetype filters by the service's vendor",
  })
  @ApiAnswer(200, 'Products')
  @ApiErrors('NOT_FOUND')
  async products(
    @Param() params: ProductsParamsDto,
    @Query() query: ProductsQueryDto,
    @OptionalSession() session: AuthenticatedSession | undefined,
  ): Promise<JsonBody<ResponseMap['Products']>> {
    const products = await this.rpc.passThrough(SUBJECTS.commerce.productList, {
      userId: params.id,
      serviceId: params.sid,
      ...(query.servicetype ? { servicetype: query.servicetype } : {}),
      ...(session ? { viewerId: session.userId } : {}),
    });
    return JsonBody.successWith('products', products);
  }

  @Get(':id/services/:sid/products/:pid')
  @UseGuards(OptionalBearerGuard)
  @ApiOptionalAuth()
  @ApiOperation({ summary: 'One product (an inactive one only for its owner)' })
  @ApiAnswer(200, 'Product')
  @ApiErrors('NOT_FOUND')
  async product(
    @Param() params: ProductParamsDto,
    @OptionalSession() session: AuthenticatedSession | undefined,
  ): Promise<JsonBody<ResponseMap['Product']>> {
    const product = await this.rpc.passThrough(SUBJECTS.commerce.productGet, {
      userId: params.id,
      serviceId: params.sid,
      productId: params.pid,
      ...(session ? { viewerId: session.userId } : {}),
    });
    return JsonBody.successWith('product', product);
  }

  @Post(':id/services/:sid/products')
  @HttpCode(201)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Add a product to your service (name and price in cents required; mail products name their shipping)' })
  @ApiCreateIdempotencyKey()
  @ApiAnswer(201, 'Product')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async createProduct(
    @Param() params: ProductsParamsDto,
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: ProductDto,
    @IdempotencyKey() key: string | undefined,
  ): Promise<ResponseMap['Product']> {
    ownGuid(params.id, session);
    const product = await this.rpc.send(SUBJECTS.commerce.productSave, {
      ...body,
      ownerId: session.userId,
      serviceId: params.sid,
      ...withKey(key),
    });
    return { success: true, product };
  }

  @Post(':id/services/:sid/products/:pid')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Edit a product (only the fields sent change; active false deactivates it). Orders keep their price.' })
  @ApiAnswer(200, 'Product')
  @ApiErrors('NOT_FOUND')
  async updateProduct(
    @Param() params: ProductParamsDto,
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: ProductDto,
  ): Promise<ResponseMap['Product']> {
    ownGuid(params.id, session);
    const message = { ...body, ownerId: session.userId, serviceId: params.sid, productId: params.pid };
    return { success: true, product: await this.rpc.send(SUBJECTS.commerce.productSave, message) };
  }

  @Delete(':id/services/:sid/products/:pid')
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Delete a product; one that has orders is deactivated instead (deleted: false)' })
  @ApiAnswer(200, 'ProductDeleted')
  @ApiErrors('NOT_FOUND')
  async deleteProduct(
    @Param() params: ProductParamsDto,
    @CurrentSession() session: AuthenticatedSession,
  ): Promise<ResponseMap['ProductDeleted']> {
    ownGuid(params.id, session);
    return this.rpc.send(SUBJECTS.commerce.productDelete, { ownerId: session.userId, serviceId: params.sid, productId: params.pid });
  }
}
