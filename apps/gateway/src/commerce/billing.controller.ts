import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreatePlanDto,
  DeletePaymentMethodQueryDto,
  OrderIdParamsDto,
  PaymentMethodParamsDto,
  SetupPaymentMethodDto,
  SetupSessionParamsDto,
  SUBJECTS,
  type ResponseMap,
} from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { JsonBody } from '../http/json-body.js';
import { BearerGuard, CurrentSession, type AuthenticatedSession } from '../auth/bearer.guard.js';
import { ApiAnswer, ApiErrors, ApiNoContent } from '../http/api-docs.js';
import { ApiCreateIdempotencyKey, IdempotencyKey, withKey } from '../http/idempotency.js';
import { RateLimit } from '../http/rate-limit.js';
import { COMMERCE_LIMITS } from '../http/rate-limits.js';

/**
 * Plans (docs/api.md#saved-cards-and-plans-billing): recurring payments for a product, charged to a saved card on the
 * plan's reminder day in its time zone with nobody online. DELETE answers 204.
 */
@ApiTags('plans')
@ApiBearerAuth()
@UseGuards(BearerGuard)
@Controller('v1/plans')
export class PlansController {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({ summary: 'Your plans: the ones you pay (role payer) and the ones that pay you (role seller), newest first' })
  @ApiAnswer(200, 'Plans')
  async list(@CurrentSession() session: AuthenticatedSession): Promise<JsonBody<ResponseMap['Plans']>> {
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.commerce.planList, { userId: session.userId }));
  }

  @Post()
  @HttpCode(201)
  @RateLimit(COMMERCE_LIMITS.plan)
  @ApiOperation({
    summary:
      'Start a plan {service, product, interval, reminderDay, start, timeZone, paymentMethod}: the first charge at start (at least 5 minutes ahead), then on the reminder day of each interval',
  })
  @ApiCreateIdempotencyKey()
  @ApiAnswer(201, 'Plan')
  @ApiErrors('NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE')
  async create(
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: CreatePlanDto,
    @IdempotencyKey() key: string | undefined,
  ): Promise<ResponseMap['Plan']> {
    return {
      success: true,
      plan: await this.rpc.send(SUBJECTS.commerce.planCreate, { ...body, payerId: session.userId, ...withKey(key) }),
    };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One of your plans with its latest charges' })
  @ApiAnswer(200, 'Plan')
  @ApiErrors('NOT_FOUND')
  async get(@CurrentSession() session: AuthenticatedSession, @Param() params: OrderIdParamsDto): Promise<JsonBody<ResponseMap['Plan']>> {
    return JsonBody.successWith(
      'plan',
      await this.rpc.passThrough(SUBJECTS.commerce.planGet, { planId: params.id, viewerId: session.userId }),
    );
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Cancel a plan you pay or are paid by: nothing more is charged (204)' })
  @ApiNoContent('Cancelled (or cancelled already)')
  @ApiErrors('NOT_FOUND')
  async cancel(@CurrentSession() session: AuthenticatedSession, @Param() params: OrderIdParamsDto): Promise<void> {
    await this.rpc.send(SUBJECTS.commerce.planCancel, { planId: params.id, viewerId: session.userId });
  }
}

/**
 * Saved cards (docs/api.md#saved-cards-and-plans-billing): the provider's page saves one (Stripe Checkout in setup mode, or the
 * sandbox's page with its test cards) and returns to /billing?setup={id}, which keeps it; listed at
 * GET /v1/paymentinstruments; made default or deleted with 204.
 */
@ApiTags('payment methods')
@ApiBearerAuth()
@UseGuards(BearerGuard)
@Controller('v1')
export class PaymentMethodsController {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  @Get('paymentinstruments')
  @ApiOperation({ summary: 'Your saved cards: brand, last 4, expiry, default, and how many live plans each pays for' })
  @ApiAnswer(200, 'PaymentInstruments')
  async list(@CurrentSession() session: AuthenticatedSession): Promise<JsonBody<ResponseMap['PaymentInstruments']>> {
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.commerce.methodList, { userId: session.userId }));
  }

  @Post('paymentmethods')
  @HttpCode(201)
  @RateLimit(COMMERCE_LIMITS.cardSetup)
  @ApiOperation({ summary: "Open the provider's page that saves a card {provider?}; send the browser to its url" })
  @ApiCreateIdempotencyKey()
  @ApiAnswer(201, 'PaymentSetup')
  @ApiErrors('UNPROCESSABLE', 'UPSTREAM_ERROR', 'CONFLICT')
  async setup(
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: SetupPaymentMethodDto,
    @IdempotencyKey() key: string | undefined,
  ): Promise<ResponseMap['PaymentSetup']> {
    return {
      success: true,
      setup: await this.rpc.send(SUBJECTS.commerce.methodSetup, { ...body, userId: session.userId, ...withKey(key) }),
    };
  }

  @Post('paymentmethods/setup/:id/complete')
  @HttpCode(200)
  @ApiOperation({ summary: 'The card page came back (?setup={id}): keep the card it saved (idempotent)' })
  @ApiAnswer(200, 'PaymentInstrument')
  @ApiErrors('NOT_FOUND', 'CONFLICT', 'UPSTREAM_ERROR')
  async complete(
    @CurrentSession() session: AuthenticatedSession,
    @Param() params: SetupSessionParamsDto,
  ): Promise<ResponseMap['PaymentInstrument']> {
    return {
      success: true,
      instrument: await this.rpc.send(SUBJECTS.commerce.methodComplete, { userId: session.userId, sessionId: params.id }),
    };
  }

  @Post('paymentmethods/:id/default')
  @HttpCode(204)
  @ApiOperation({ summary: 'Make a card your default (204)' })
  @ApiNoContent()
  @ApiErrors('NOT_FOUND')
  async makeDefault(@CurrentSession() session: AuthenticatedSession, @Param() params: PaymentMethodParamsDto): Promise<void> {
    await this.rpc.send(SUBJECTS.commerce.methodDefault, { userId: session.userId, methodId: params.id });
  }

  @Delete('paymentmethods/:id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a card (204); one that pays for live plans needs ?replacement={another card}, which takes them over',
  })
  @ApiNoContent()
  @ApiErrors('NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE')
  async remove(
    @CurrentSession() session: AuthenticatedSession,
    @Param() params: PaymentMethodParamsDto,
    @Query() query: DeletePaymentMethodQueryDto,
  ): Promise<void> {
    await this.rpc.send(SUBJECTS.commerce.methodDelete, { userId: session.userId, methodId: params.id, ...query });
  }
}
