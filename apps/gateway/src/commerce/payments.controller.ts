import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiConsumes, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AppError,
  SandboxAuthenticateDto,
  SandboxCardDto,
  SandboxSessionParamsDto,
  SUBJECTS,
  type ResponseMap,
} from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { JsonBody } from '../http/json-body.js';
import type { Request } from 'express';
import { ApiAnswer, ApiErrors } from '../http/api-docs.js';

/** The path whose body the gateway keeps raw (Stripe signs the exact bytes). */
export const STRIPE_WEBHOOK_PATH = '/v1/webhooks/stripe';
/** Largest webhook body taken (Stripe's events are far smaller). */
export const WEBHOOK_BODY_LIMIT = '512kb';

/**
 * What the payment providers call, and the sandbox processor's hosted pay page: Stripe's signed
 * webhooks (raw body, signature checked by commerce, each event applied once) and the card form of the
 * sandbox (Stripe's test cards).
 */
@ApiTags('payments')
@Controller('v1')
export class PaymentsController {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  @Post('webhooks/stripe')
  @HttpCode(200)
  @ApiConsumes('application/json')
  @ApiHeader({ name: 'Stripe-Signature', required: true, description: "Stripe's signature of the raw body (t=..., v1=...)" })
  @ApiOperation({ summary: "Stripe's webhook (checkout.session.completed, checkout.session.async_payment_failed, charge.refunded...)" })
  @ApiAnswer(200, 'WebhookReceived')
  // UNPROCESSABLE: this site has no STRIPE_WEBHOOK_SECRET, so no event can be verified (Stripe retries later).
  @ApiErrors('SIGNATURE_INVALID', 'UNPROCESSABLE')
  async stripe(@Req() req: Request): Promise<ResponseMap['WebhookReceived']> {
    const signature = req.header('stripe-signature');
    if (!signature) throw new AppError('SIGNATURE_INVALID', 'the Stripe-Signature header is missing');
    const body: unknown = req.body;
    if (!Buffer.isBuffer(body) || body.length === 0) throw new AppError('VALIDATION_FAILED', 'the webhook has no body');
    const message = { payload: body.toString('utf8'), signature: signature.slice(0, 2000) };
    return this.rpc.send(SUBJECTS.commerce.webhookStripe, message, 10_000);
  }

  @Get('sandbox/sessions/:id')
  @ApiOperation({ summary: "The sandbox processor's pay session: what is paid for, and its state" })
  @ApiAnswer(200, 'SandboxSession')
  @ApiErrors('NOT_FOUND')
  async session(@Param() params: SandboxSessionParamsDto): Promise<JsonBody<ResponseMap['SandboxSession']>> {
    return JsonBody.successWith('session', await this.rpc.passThrough(SUBJECTS.commerce.sandboxGet, { sessionId: params.id }));
  }

  @Post('sandbox/sessions/:id/pay')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Pay a sandbox session with a test card: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, 4000 0025 0000 3155 asks for confirmation',
  })
  @ApiAnswer(200, 'SandboxSession')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async pay(@Param() params: SandboxSessionParamsDto, @Body() body: SandboxCardDto): Promise<ResponseMap['SandboxSession']> {
    return { success: true, session: await this.rpc.send(SUBJECTS.commerce.sandboxPay, { ...body, sessionId: params.id }) };
  }

  @Post('sandbox/sessions/:id/authenticate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Complete or fail the confirmation (3-D Secure) a card asked for' })
  @ApiAnswer(200, 'SandboxSession')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async authenticate(
    @Param() params: SandboxSessionParamsDto,
    @Body() body: SandboxAuthenticateDto,
  ): Promise<ResponseMap['SandboxSession']> {
    return { success: true, session: await this.rpc.send(SUBJECTS.commerce.sandboxAuthenticate, { ...body, sessionId: params.id }) };
  }

  @Post('sandbox/sessions/:id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Leave the pay page without paying (the session expires; the order stays unpaid)' })
  @ApiAnswer(200, 'SandboxSession')
  @ApiErrors('NOT_FOUND')
  async cancel(@Param() params: SandboxSessionParamsDto): Promise<ResponseMap['SandboxSession']> {
    return { success: true, session: await this.rpc.send(SUBJECTS.commerce.sandboxCancel, { sessionId: params.id }) };
  }
}
