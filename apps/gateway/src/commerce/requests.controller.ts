import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AcceptRequestDto,
  CreateRequestDto,
  DeclineRequestDto,
  ListQueryDto,
  OrderIdParamsDto,
  RequestKeyQueryDto,
  RequestsQueryDto,
  SUBJECTS,
  TimelineEventParamsDto,
  type ResponseMap,
} from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { JsonBody } from '../http/json-body.js';
import { BearerGuard, CurrentSession, OptionalBearerGuard, OptionalSession, type AuthenticatedSession } from '../auth/bearer.guard.js';
import { ApiAnswer, ApiErrors, ApiOptionalAuth } from '../http/api-docs.js';
import { ApiCreateIdempotencyKey, IdempotencyKey, withKey } from '../http/idempotency.js';
import { RateLimit } from '../http/rate-limit.js';
import { COMMERCE_LIMITS } from '../http/rate-limits.js';
import { PROVIDER_TIMEOUT_MS } from './viewer.js';

const viewer = (session: AuthenticatedSession | undefined, key: string | undefined) => ({
  ...(session ? { viewerId: session.userId } : {}),
  ...(key ? { key } : {}),
});

/**
 * Payment requests (docs/api.md#payment-requests-and-the-timeline-billing): a seller asks a person by email to pay for a product; the
 * payer (the emailed link's key, or signed in with that verified address) accepts or declines. Anyone
 * else is answered as for a missing request.
 */
@ApiTags('requests')
@Controller('v1/requests')
export class RequestsController {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @UseGuards(BearerGuard)
  @RateLimit(COMMERCE_LIMITS.request)
  @ApiBearerAuth()
  @ApiOperation({
    summary:
      'Ask a person by email to pay for one of your products {email, note, service, product}, or a custom amount {email, note, service, amount, description}; the email links to the request',
  })
  @ApiCreateIdempotencyKey()
  @ApiAnswer(201, 'PaymentRequest')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async create(
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: CreateRequestDto,
    @IdempotencyKey() key: string | undefined,
  ): Promise<ResponseMap['PaymentRequest']> {
    return {
      success: true,
      request: await this.rpc.send(SUBJECTS.commerce.requestCreate, { ...body, sellerId: session.userId, ...withKey(key) }),
    };
  }

  @Get()
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Your payment requests: box=sent (as the seller) or received (as the payer), newest first' })
  @ApiAnswer(200, 'PaymentRequests')
  async list(
    @CurrentSession() session: AuthenticatedSession,
    @Query() query: RequestsQueryDto,
  ): Promise<JsonBody<ResponseMap['PaymentRequests']>> {
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.commerce.requestList, { ...query, viewerId: session.userId }));
  }

  @Get(':id')
  @UseGuards(OptionalBearerGuard)
  @ApiOptionalAuth()
  @ApiOperation({ summary: 'A payment request as its payer (key, or signed in) or its seller sees it' })
  @ApiAnswer(200, 'PaymentRequest')
  @ApiErrors('NOT_FOUND')
  async get(
    @Param() params: OrderIdParamsDto,
    @Query() query: RequestKeyQueryDto,
    @OptionalSession() session: AuthenticatedSession | undefined,
  ): Promise<JsonBody<ResponseMap['PaymentRequest']>> {
    return JsonBody.successWith(
      'request',
      await this.rpc.passThrough(SUBJECTS.commerce.requestGet, { requestId: params.id, ...viewer(session, query.key) }),
    );
  }

  @Post(':id/accept')
  @HttpCode(200)
  @UseGuards(OptionalBearerGuard)
  @ApiOptionalAuth()
  @ApiOperation({ summary: 'Accept {email, note, share}: places the order at the asked price; pay it next (POST /v1/orders/{id}/pay)' })
  @ApiAnswer(200, 'RequestAccepted')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async accept(
    @Param() params: OrderIdParamsDto,
    @Query() query: RequestKeyQueryDto,
    @Body() body: AcceptRequestDto,
    @OptionalSession() session: AuthenticatedSession | undefined,
  ): Promise<ResponseMap['RequestAccepted']> {
    const answer = await this.rpc.send(SUBJECTS.commerce.requestAccept, { ...body, requestId: params.id, ...viewer(session, query.key) });
    return { success: true, ...answer };
  }

  @Post(':id/decline')
  @HttpCode(200)
  @UseGuards(OptionalBearerGuard)
  @ApiOptionalAuth()
  @ApiOperation({ summary: 'Decline the request, optionally saying why {reason}; the seller is told, with the reason' })
  @ApiAnswer(200, 'PaymentRequest')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async decline(
    @Param() params: OrderIdParamsDto,
    @Query() query: RequestKeyQueryDto,
    @Body() body: DeclineRequestDto,
    @OptionalSession() session: AuthenticatedSession | undefined,
  ): Promise<ResponseMap['PaymentRequest']> {
    const reason = body?.reason;
    return {
      success: true,
      request: await this.rpc.send(SUBJECTS.commerce.requestDecline, {
        requestId: params.id,
        ...viewer(session, query.key),
        ...(reason !== undefined ? { reason } : {}),
      }),
    };
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Withdraw a request (the seller)',
    description:
      'An open request is withdrawn; an accepted one is withdrawn together with its unpaid order, which can then not be paid. A request whose order is paid answers 409: refund the order instead.',
  })
  @ApiAnswer(200, 'PaymentRequest')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async cancel(@Param() params: OrderIdParamsDto, @CurrentSession() session: AuthenticatedSession): Promise<ResponseMap['PaymentRequest']> {
    return {
      success: true,
      request: await this.rpc.send(
        SUBJECTS.commerce.requestCancel,
        { requestId: params.id, viewerId: session.userId },
        PROVIDER_TIMEOUT_MS,
      ),
    };
  }
}

/** The account's timeline: every event commerce recorded for it, newest first. */
@ApiTags('timeline')
@ApiBearerAuth()
@UseGuards(BearerGuard)
@Controller('v1/timeline')
export class TimelineController {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({ summary: 'Events of your account, newest first (offset, limit; total in the body)' })
  @ApiAnswer(200, 'Timeline')
  async list(@CurrentSession() session: AuthenticatedSession, @Query() query: ListQueryDto): Promise<JsonBody<ResponseMap['Timeline']>> {
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.commerce.timelineList, { ...query, userId: session.userId }));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One event of your timeline' })
  @ApiAnswer(200, 'TimelineEvent')
  @ApiErrors('NOT_FOUND')
  async get(
    @CurrentSession() session: AuthenticatedSession,
    @Param() params: TimelineEventParamsDto,
  ): Promise<JsonBody<ResponseMap['TimelineEvent']>> {
    return JsonBody.successWith(
      'event',
      await this.rpc.passThrough(SUBJECTS.commerce.timelineGet, { userId: session.userId, eventId: params.id }),
    );
  }
}
