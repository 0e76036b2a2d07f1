import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  AppError,
  OIDC_PROVIDERS,
  OidcAuthorizeDto,
  SUBJECTS,
  type OidcAuthorizeResult,
  type OidcExchangeResult,
  type OidcProvidersResult,
} from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { JsonBody } from '../http/json-body.js';
import { ApiAnswer, ApiErrors } from '../http/api-docs.js';

/** Deadlines of the calls that talk to a provider (discovery, token endpoint, keys, userinfo). */
const AUTHORIZE_TIMEOUT_MS = 10_000;
const EXCHANGE_TIMEOUT_MS = 20_000;

const providerParam = { name: 'provider', enum: OIDC_PROVIDERS, description: 'A provider listed by GET /v1/auth/providers' };

/** Social sign-in with OpenID Connect (authorization code flow with PKCE); the rules are in identity. */
@ApiTags('users')
@Controller('v1')
export class OidcController {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  @Get('auth/providers')
  @ApiOperation({ summary: 'The social sign-in providers configured on this server, in display order' })
  @ApiAnswer(200, 'OidcProviders')
  async providers(): Promise<JsonBody<{ success: true } & OidcProvidersResult>> {
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.identity.oidcList, {}));
  }

  @Post('auth/:provider/authorize')
  @HttpCode(200)
  @ApiParam(providerParam)
  @ApiOperation({
    summary:
      "Start a social sign-in: answers the provider's authorization URL (code flow, PKCE S256, state, nonce); " +
      'the provider sends the browser back to /login/oauth/{provider}',
  })
  @ApiAnswer(200, 'OidcAuthorize')
  @ApiErrors('NOT_FOUND')
  async authorize(@Param('provider') provider: string, @Body() body: OidcAuthorizeDto): Promise<{ success: true } & OidcAuthorizeResult> {
    if (provider.length > 40) throw new AppError('NOT_FOUND', 'unknown sign-in provider');
    const message = { provider, ...(body.returnTo !== undefined ? { returnTo: body.returnTo } : {}) };
    return { success: true, ...(await this.rpc.send(SUBJECTS.identity.oidcAuthorize, message, AUTHORIZE_TIMEOUT_MS)) };
  }

  @Post(':provider/credentials/exchange/:code')
  @HttpCode(200)
  @ApiParam(providerParam)
  @ApiParam({ name: 'code', description: 'The code the provider sent back to /login/oauth/{provider}' })
  @ApiQuery({ name: 'state', required: true, description: 'The state the provider sent back with the code' })
  @ApiQuery({ name: 'iss', required: false, description: 'The iss the provider sent back with the code, if any (RFC 9207)' })
  @ApiOperation({
    summary:
      'Finish a social sign-in: answers like sign-in (profile, token, verified) plus returnTo; 409 EMAIL_IN_USE when the email belongs to another account',
  })
  @ApiAnswer(200, 'OidcExchange')
  @ApiErrors('NOT_FOUND', 'UNAUTHORIZED', 'EMAIL_IN_USE', 'LINK_INVALID')
  async exchange(
    @Param('provider') provider: string,
    @Param('code') code: string,
    @Query('state') state: unknown,
    @Query('iss') iss: unknown,
  ): Promise<{ success: true } & OidcExchangeResult> {
    if (provider.length > 40) throw new AppError('NOT_FOUND', 'unknown sign-in provider');
    if (code.length > 2048) throw new AppError('VALIDATION_FAILED', 'the code is too long');
    if (typeof state !== 'string' || state === '') {
      throw new AppError('VALIDATION_FAILED', 'state is required: pass the state query parameter the provider sent back');
    }
    const message = { provider, code, state, ...(typeof iss === 'string' && iss !== '' ? { iss } : {}) };
    return { success: true, ...(await this.rpc.send(SUBJECTS.identity.oidcExchange, message, EXCHANGE_TIMEOUT_MS)) };
  }
}
