import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CompleteParamsDto,
  FulfilDto,
  OrderDto,
  OrderIdParamsDto,
  OrdersQueryDto,
  OrderViewQueryDto,
  ProductsParamsDto,
  RefundOrderDto,
  ReplyDto,
  SellerOrdersQueryDto,
  SellerOverviewQueryDto,
  SUBJECTS,
  type ResponseMap,
} from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { JsonBody } from '../http/json-body.js';
import type { Request } from 'express';
import { BearerGuard, CurrentSession, OptionalBearerGuard, OptionalSession, type AuthenticatedSession } from '../auth/bearer.guard.js';
import { ApiAnswer, ApiErrors, ApiOptionalAuth } from '../http/api-docs.js';
import { ApiCreateIdempotencyKey, IdempotencyKey, idempotencyKey, withKey } from '../http/idempotency.js';
import { RateLimit } from '../http/rate-limit.js';
import { COMMERCE_LIMITS } from '../http/rate-limits.js';
import { PROVIDER_TIMEOUT_MS, Viewers } from './viewer.js';

const IDEMPOTENCY_HEADER = ApiHeader({
  name: 'Idempotency-Key',
  required: false,
  description: 'Retries with the same key answer the first answer again and charge nothing more (up to 255 printable characters)',
});

/**
 * Orders (docs/api.md#selling-services-products-orders-payment-and-receipts): placing one from a provider's page (a visitor or a signed-in
 * user), paying through the service's provider, completing when the browser returns, replies between
 * buyer and seller, and the seller's fulfilment. Orders placed while signed in are that account's and
 * the seller's only; a visitor's order is reached through its id (a random UUID, as in the emailed link).
 */
@ApiTags('orders')
@Controller('v1')
export class OrdersController {
  constructor(
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(Viewers) private readonly viewers: Viewers,
  ) {}

  @Post('users/:id/services/:sid/order')
  @HttpCode(201)
  @UseGuards(OptionalBearerGuard)
  @ApiOptionalAuth()
  @RateLimit(COMMERCE_LIMITS.order)
  @ApiOperation({ summary: 'Order a product {product, email, note, share} at its current price (mail products: shipping too)' })
  @ApiCreateIdempotencyKey()
  @ApiAnswer(201, 'Order')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async create(
    @Param() params: ProductsParamsDto,
    @Body() body: OrderDto,
    @OptionalSession() session: AuthenticatedSession | undefined,
    @IdempotencyKey() key: string | undefined,
  ): Promise<ResponseMap['Order']> {
    const order = await this.rpc.send(SUBJECTS.commerce.orderCreate, {
      ...body,
      ...withKey(key),
      sellerId: params.id,
      serviceId: params.sid,
      ...(session ? { buyerId: session.userId } : {}),
    });
    return { success: true, order };
  }

  @Get('orders')
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Your orders as a buyer, newest first (offset, limit, state)' })
  @ApiAnswer(200, 'Orders')
  async mine(@CurrentSession() session: AuthenticatedSession, @Query() query: OrdersQueryDto): Promise<JsonBody<ResponseMap['Orders']>> {
    return JsonBody.successAnd(
      await this.rpc.passThrough(SUBJECTS.commerce.orderList, { ...query, viewerId: session.userId, role: 'buyer' }),
    );
  }

  @Get('orders/:id')
  @UseGuards(OptionalBearerGuard)
  @ApiOptionalAuth()
  @ApiOperation({
    summary: "The order and, once paid, its receipt (dates in the viewer's time zone; tz when signed out)",
    description:
      'An order placed signed in: its buyer and seller only (anyone else 404). An order placed signed out: anyone holding its id, but replies only for the seller and for the signed-in account with the verified address it was placed with (role buyer); others get replies []. The seller gets the buyer address (email, receipt.email) only when the buyer shared it.',
  })
  @ApiAnswer(200, 'Order')
  @ApiErrors('NOT_FOUND')
  async get(
    @Param() params: OrderIdParamsDto,
    @Query() query: OrderViewQueryDto,
    @OptionalSession() session: AuthenticatedSession | undefined,
  ): Promise<JsonBody<ResponseMap['Order']>> {
    const viewer = await this.viewers.of(session, query.tz);
    return JsonBody.successWith('order', await this.rpc.passThrough(SUBJECTS.commerce.orderGet, { orderId: params.id, ...viewer }));
  }

  @Post('orders/:id/pay')
  @HttpCode(200)
  @UseGuards(OptionalBearerGuard)
  @ApiOptionalAuth()
  @IDEMPOTENCY_HEADER
  @ApiOperation({
    summary: 'Start paying: answers the hosted pay page to send the browser to (Stripe Checkout, or the sandbox page)',
    description: 'Two pays of one order at once make one payment session; an open session is answered again.',
  })
  @ApiAnswer(200, 'Payment')
  @ApiErrors('NOT_FOUND', 'CONFLICT', 'ACCOUNT_INVALID', 'UPSTREAM_ERROR')
  async pay(
    @Param() params: OrderIdParamsDto,
    @Req() req: Request,
    @OptionalSession() session: AuthenticatedSession | undefined,
  ): Promise<ResponseMap['Payment']> {
    const key = idempotencyKey(req);
    const message = { orderId: params.id, ...(session ? { viewerId: session.userId } : {}), ...(key ? { idempotencyKey: key } : {}) };
    return { success: true, ...(await this.rpc.send(SUBJECTS.commerce.orderPay, message, PROVIDER_TIMEOUT_MS)) };
  }

  @Post('orders/:id/complete/:x')
  @HttpCode(200)
  @UseGuards(OptionalBearerGuard)
  @ApiOptionalAuth()
  @IDEMPOTENCY_HEADER
  @ApiOperation({
    summary: 'Confirm with the provider that session x paid this order, and mark it paid (completing again is harmless)',
    description: 'An unpaid session answers the order as it is (pending, or failed with the reason).',
  })
  @ApiAnswer(200, 'Order')
  @ApiErrors('NOT_FOUND', 'CONFLICT', 'UPSTREAM_ERROR')
  async complete(
    @Param() params: CompleteParamsDto,
    @Req() req: Request,
    @OptionalSession() session: AuthenticatedSession | undefined,
  ): Promise<ResponseMap['Order']> {
    const key = idempotencyKey(req);
    const viewer = await this.viewers.of(session);
    const message = { orderId: params.id, sessionId: params.x, ...viewer, ...(key ? { idempotencyKey: key } : {}) };
    return { success: true, order: await this.rpc.send(SUBJECTS.commerce.orderComplete, message, PROVIDER_TIMEOUT_MS) };
  }

  @Post('orders/:id/cancel')
  @HttpCode(200)
  @UseGuards(OptionalBearerGuard)
  @ApiOptionalAuth()
  @ApiOperation({
    summary: 'Cancel an order that is not paid (its buyer or seller)',
    description:
      'Decided under the order lock against a payment at the same moment: a paid order answers 409. The provider pay page is closed; a payment that still got through is refunded automatically (the order lists it in latePayments).',
  })
  @ApiAnswer(200, 'Order')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async cancel(
    @Param() params: OrderIdParamsDto,
    @OptionalSession() session: AuthenticatedSession | undefined,
  ): Promise<ResponseMap['Order']> {
    const viewer = await this.viewers.of(session);
    return {
      success: true,
      order: await this.rpc.send(SUBJECTS.commerce.orderCancel, { orderId: params.id, ...viewer }, PROVIDER_TIMEOUT_MS),
    };
  }

  @Post('orders/:id/refund')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @IDEMPOTENCY_HEADER
  @ApiOperation({
    summary: 'Refund a paid (or fulfilled) order, all that remains or part of it, through its provider (the seller)',
    description:
      'Without a body: refunds all that remains. `amount` (cents) refunds part of it; several refunds are allowed until all is refunded (the order is `refunded` then). More than remains, 0 or not whole cents: 400 on `amount`; nothing left: 409. Each Idempotency-Key is one refund.',
  })
  @ApiAnswer(200, 'Order')
  @ApiErrors('VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT', 'UPSTREAM_ERROR')
  async refund(
    @Param() params: OrderIdParamsDto,
    @Body() body: RefundOrderDto,
    @Req() req: Request,
    @CurrentSession() session: AuthenticatedSession,
  ): Promise<ResponseMap['Order']> {
    const key = idempotencyKey(req);
    const viewer = await this.viewers.of(session);
    const message = {
      orderId: params.id,
      ...viewer,
      ...(body.amount !== undefined ? { amount: body.amount } : {}),
      ...(body.reason !== undefined ? { reason: body.reason } : {}),
      ...(key ? { idempotencyKey: key } : {}),
    };
    return { success: true, order: await this.rpc.send(SUBJECTS.commerce.orderRefund, message, PROVIDER_TIMEOUT_MS) };
  }

  @Post('orders/:id/reply')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @RateLimit(COMMERCE_LIMITS.reply)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Write to the other side of an order (buyer or seller); they are told by email' })
  @ApiCreateIdempotencyKey()
  @ApiAnswer(200, 'Order')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async reply(
    @Param() params: OrderIdParamsDto,
    @Body() body: ReplyDto,
    @CurrentSession() session: AuthenticatedSession,
    @IdempotencyKey() key: string | undefined,
  ): Promise<ResponseMap['Order']> {
    const message = { ...body, orderId: params.id, viewerId: session.userId, ...withKey(key) };
    return { success: true, order: await this.rpc.send(SUBJECTS.commerce.orderReply, message) };
  }

  @Get('fulfillment')
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Your incoming orders as a seller, newest first (offset, limit, state)' })
  @ApiAnswer(200, 'Orders')
  async incoming(
    @CurrentSession() session: AuthenticatedSession,
    @Query() query: OrdersQueryDto,
  ): Promise<JsonBody<ResponseMap['Orders']>> {
    return JsonBody.successAnd(
      await this.rpc.passThrough(SUBJECTS.commerce.orderList, { ...query, viewerId: session.userId, role: 'seller' }),
    );
  }

  @Get('fulfillment/overview')
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary:
      "Your seller's overview: earnings per currency (this month in your profile's time zone, else UTC; all time), orders to fulfil, new orders",
    description:
      'Earnings count paid orders only (paid, fulfilled, refunded), by the time they were paid; refunds are what of them was given back; net = gross − refunds. newOrders: orders paid after `since`, else after your seen marker (POST /v1/fulfillment/seen).',
  })
  @ApiAnswer(200, 'SellerOverview')
  async overview(
    @CurrentSession() session: AuthenticatedSession,
    @Query() query: SellerOverviewQueryDto,
  ): Promise<JsonBody<ResponseMap['SellerOverview']>> {
    const zone = await this.viewers.profileZone(session);
    const message = { ...query, sellerId: session.userId, ...(zone ? { timeZone: zone } : {}) };
    return JsonBody.successWith('overview', await this.rpc.passThrough(SUBJECTS.commerce.sellerOverview, message));
  }

  @Get('fulfillment/orders')
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary:
      'Your orders as a seller, newest first, one line each: filter (to_fulfil, paid, fulfilled, refunded, unpaid, cancelled), serviceId, q (receipt number or shared buyer address)',
  })
  @ApiAnswer(200, 'SellerOrders')
  @ApiErrors('NOT_FOUND')
  async sellerOrders(
    @CurrentSession() session: AuthenticatedSession,
    @Query() query: SellerOrdersQueryDto,
  ): Promise<JsonBody<ResponseMap['SellerOrders']>> {
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.commerce.sellerOrders, { ...query, sellerId: session.userId }));
  }

  @Post('fulfillment/seen')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Mark your overview seen now: orders paid until now are no longer new' })
  @ApiAnswer(200, 'SellerSeen')
  async seen(@CurrentSession() session: AuthenticatedSession): Promise<ResponseMap['SellerSeen']> {
    return { success: true, ...(await this.rpc.send(SUBJECTS.commerce.sellerSeen, { sellerId: session.userId })) };
  }

  @Get('fulfillment/:id/order')
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'What to deliver for an order (the seller only): items, shipping service, options and address for mail' })
  @ApiAnswer(200, 'Fulfillment')
  @ApiErrors('NOT_FOUND')
  async fulfillment(
    @Param() params: OrderIdParamsDto,
    @CurrentSession() session: AuthenticatedSession,
  ): Promise<JsonBody<ResponseMap['Fulfillment']>> {
    const viewer = await this.viewers.of(session);
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.commerce.fulfillmentGet, { orderId: params.id, ...viewer }));
  }

  @Post('fulfillment/:id/fulfilled')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Mark a paid order fulfilled (the seller); the note goes to the buyer' })
  @ApiAnswer(200, 'Order')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async fulfil(
    @Param() params: OrderIdParamsDto,
    @Body() body: FulfilDto,
    @CurrentSession() session: AuthenticatedSession,
  ): Promise<ResponseMap['Order']> {
    return {
      success: true,
      order: await this.rpc.send(SUBJECTS.commerce.fulfillmentComplete, { ...body, orderId: params.id, viewerId: session.userId }),
    };
  }
}
