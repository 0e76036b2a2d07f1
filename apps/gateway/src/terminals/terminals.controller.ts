import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AppError,
  ListQueryDto,
  PushSubscriptionDto,
  RegisterTerminalDto,
  ShareDto,
  ShareParamsDto,
  SUBJECTS,
  TerminalIdParamsDto,
  TerminalParamsDto,
  UpdateTerminalDto,
  type ResponseMap,
} from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { JsonBody } from '../http/json-body.js';
import { BearerGuard, CurrentSession, type AuthenticatedSession } from '../auth/bearer.guard.js';
import type { OAuthServer } from '../oauth/oauth-provider.js';
import { OAuthScope } from '../oauth/oauth-scope.js';
import { OAUTH_SERVER, OAuthTokens } from '../oauth/oauth-tokens.js';
import { ApiAnswer, ApiErrors, ApiNoContent, ApiPublic } from '../http/api-docs.js';
import { ApiCreateIdempotencyKey, IdempotencyKey, withKey } from '../http/idempotency.js';
import { RateLimit } from '../http/rate-limit.js';
import { TERMINAL_LIMITS } from '../http/rate-limits.js';
import { Caller, TerminalOrUserGuard, type TerminalCaller } from './terminal-auth.guard.js';

const by = (caller: TerminalCaller) => ({ userId: caller.userId, ...(caller.terminalId ? { callerTerminalId: caller.terminalId } : {}) });

/**
 * Terminals (docs/api.md#terminals-and-web-push): browsers of a signed-in user that send and receive shared
 * content with Web Push. Another user's terminal is answered as a missing one (404). The calls a
 * terminal makes itself (share, its subscription, its inbox) also take its terminal token.
 */
@ApiTags('terminals')
@ApiBearerAuth()
@Controller('v1')
export class TerminalsController {
  constructor(
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(OAUTH_SERVER) private readonly oauth: OAuthServer,
    @Inject(OAuthTokens) private readonly tokens: OAuthTokens,
  ) {}

  @Post('terminals')
  @HttpCode(201)
  @UseGuards(BearerGuard)
  @OAuthScope('terminals')
  @RateLimit(TERMINAL_LIMITS.register)
  @ApiOperation({
    summary:
      'Register a terminal {label, send, receive, active, details, platform, capabilities, remote}: 201 with its terminal token (shown once)',
  })
  @ApiCreateIdempotencyKey()
  @ApiAnswer(201, 'TerminalRegistered')
  @ApiErrors('CONFLICT')
  async register(
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: RegisterTerminalDto,
    @IdempotencyKey() key: string | undefined,
  ): Promise<ResponseMap['TerminalRegistered']> {
    // Registered with an app's access token: the terminal belongs to that consent (its grant) and
    // ends with it; the list names the app.
    const app = session.oauth ? await this.appOf(session.oauth) : undefined;
    const registered = await this.rpc.send(SUBJECTS.terminals.terminalRegister, {
      ...body,
      userId: session.userId,
      ...(app ? { app } : {}),
      ...withKey(key),
    });
    return { success: true, ...registered };
  }

  private async appOf(oauth: { clientId: string; grantId: string }): Promise<{ grantId: string; appId: string; appName: string }> {
    const client = await this.oauth.provider.Client.find(oauth.clientId);
    if (!client) throw new AppError('INVALID_TOKEN', 'the app of this access token no longer exists');
    return { grantId: oauth.grantId, appId: oauth.clientId, appName: client.clientName ?? oauth.clientId };
  }

  @Get('terminals')
  @UseGuards(BearerGuard)
  @OAuthScope('terminals')
  @ApiOperation({ summary: 'Your terminals' })
  @ApiAnswer(200, 'Terminals')
  async list(@CurrentSession() session: AuthenticatedSession): Promise<ResponseMap['Terminals']> {
    let list = await this.rpc.send(SUBJECTS.terminals.terminalList, { userId: session.userId });
    // Terminals an app registered are listed while its grant lives: one whose grant ended while the
    // terminals service did not hear of it (it was down) goes now.
    if (list.terminals.some((t) => t.app !== null)) {
      const { grantIds } = await this.rpc.send(SUBJECTS.terminals.grantList, { userId: session.userId });
      const lives = await Promise.all(grantIds.map((id) => this.tokens.grantLives(id)));
      const ended = grantIds.filter((_id, i) => !lives[i]);
      if (ended.length > 0) {
        await this.rpc.send(SUBJECTS.terminals.grantsEnded, { grantIds: ended });
        list = await this.rpc.send(SUBJECTS.terminals.terminalList, { userId: session.userId });
      }
    }
    return { success: true, ...list };
  }

  @Get('terminals/:id')
  @UseGuards(TerminalOrUserGuard)
  @OAuthScope('terminals')
  @ApiOperation({ summary: 'One of your terminals (a terminal token reads its own terminal only)' })
  @ApiAnswer(200, 'Terminal')
  @ApiErrors('NOT_FOUND', 'INVALID_TOKEN')
  async get(@Caller() caller: TerminalCaller, @Param() params: TerminalParamsDto): Promise<JsonBody<ResponseMap['Terminal']>> {
    return JsonBody.successWith(
      'terminal',
      await this.rpc.passThrough(SUBJECTS.terminals.terminalGet, { ...by(caller), terminalId: params.id }),
    );
  }

  @Post('terminals/:id')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @OAuthScope('terminals')
  @ApiOperation({ summary: 'Rename a terminal, switch send / receive / active, or choose where its own shares go (destination)' })
  @ApiAnswer(200, 'Terminal')
  @ApiErrors('NOT_FOUND', 'UNPROCESSABLE')
  async update(
    @CurrentSession() session: AuthenticatedSession,
    @Param() params: TerminalParamsDto,
    @Body() body: UpdateTerminalDto,
  ): Promise<ResponseMap['Terminal']> {
    return {
      success: true,
      terminal: await this.rpc.send(SUBJECTS.terminals.terminalUpdate, { ...body, userId: session.userId, terminalId: params.id }),
    };
  }

  @Delete('terminals/:id')
  @HttpCode(204)
  @UseGuards(BearerGuard)
  @OAuthScope('terminals')
  @ApiOperation({ summary: 'Remove a terminal with its inbox (204); its terminal token stops working' })
  @ApiNoContent()
  @ApiErrors('NOT_FOUND')
  async remove(@CurrentSession() session: AuthenticatedSession, @Param() params: TerminalParamsDto): Promise<void> {
    // The owner's open pages hear of it from the terminals service (its terminal.removed event).
    await this.rpc.send(SUBJECTS.terminals.terminalRemove, { userId: session.userId, terminalId: params.id });
  }

  @Post('terminals/:id/subscription')
  @HttpCode(200)
  @UseGuards(TerminalOrUserGuard)
  @OAuthScope('terminals')
  @ApiOperation({ summary: "Store the terminal's Web Push subscription (PushSubscription.toJSON())" })
  @ApiAnswer(200, 'Terminal')
  @ApiErrors('NOT_FOUND', 'UNAVAILABLE', 'INVALID_TOKEN')
  async subscribe(
    @Caller() caller: TerminalCaller,
    @Param() params: TerminalParamsDto,
    @Body() body: PushSubscriptionDto,
  ): Promise<ResponseMap['Terminal']> {
    return {
      success: true,
      terminal: await this.rpc.send(SUBJECTS.terminals.subscriptionSave, { ...body, ...by(caller), terminalId: params.id }),
    };
  }

  @Delete('terminals/:id/subscription')
  @HttpCode(200)
  @UseGuards(TerminalOrUserGuard)
  @OAuthScope('terminals')
  @ApiOperation({ summary: "Forget the terminal's push subscription (push off)" })
  @ApiAnswer(200, 'Terminal')
  @ApiErrors('NOT_FOUND', 'INVALID_TOKEN')
  async unsubscribe(@Caller() caller: TerminalCaller, @Param() params: TerminalParamsDto): Promise<ResponseMap['Terminal']> {
    return {
      success: true,
      terminal: await this.rpc.send(SUBJECTS.terminals.subscriptionRemove, { ...by(caller), terminalId: params.id }),
    };
  }

  @Post('terminals/:terminalId/share')
  @HttpCode(200)
  @UseGuards(TerminalOrUserGuard)
  @OAuthScope('terminals')
  @RateLimit(TERMINAL_LIMITS.share)
  @ApiOperation({
    summary:
      "Share {contentType, content, description} to a terminal (200): kept in its inbox and pushed. The user's token or a sending terminal's; a terminal's own token to its own id sends to its chosen destination",
  })
  @ApiCreateIdempotencyKey()
  @ApiAnswer(200, 'Share')
  @ApiErrors('NOT_FOUND', 'CONFLICT', 'FORBIDDEN', 'INVALID_TOKEN')
  async share(
    @Caller() caller: TerminalCaller,
    @Param() params: TerminalIdParamsDto,
    @Body() body: ShareDto,
    @IdempotencyKey() key: string | undefined,
  ): Promise<ResponseMap['Share']> {
    return {
      success: true,
      share: await this.rpc.send(SUBJECTS.terminals.shareSend, {
        ...body,
        userId: caller.userId,
        terminalId: params.terminalId,
        ...(caller.terminalId ? { fromTerminalId: caller.terminalId } : {}),
        ...withKey(key),
      }),
    };
  }

  @Get('terminals/:id/inbox')
  @UseGuards(TerminalOrUserGuard)
  @OAuthScope('terminals')
  @ApiOperation({ summary: "A terminal's inbox: the shares sent to it, newest first (offset, limit; total)" })
  @ApiAnswer(200, 'Shares')
  @ApiErrors('NOT_FOUND', 'INVALID_TOKEN')
  async inbox(
    @Caller() caller: TerminalCaller,
    @Param() params: TerminalParamsDto,
    @Query() query: ListQueryDto,
  ): Promise<JsonBody<ResponseMap['Shares']>> {
    return JsonBody.successAnd(
      await this.rpc.passThrough(SUBJECTS.terminals.shareList, { ...query, ...by(caller), terminalId: params.id }),
    );
  }

  @Delete('terminals/:id/inbox/:shareId')
  @HttpCode(204)
  @UseGuards(TerminalOrUserGuard)
  @OAuthScope('terminals')
  @ApiOperation({ summary: 'Delete a share from the inbox (204)' })
  @ApiNoContent()
  @ApiErrors('NOT_FOUND', 'INVALID_TOKEN')
  async removeShare(@Caller() caller: TerminalCaller, @Param() params: ShareParamsDto): Promise<void> {
    await this.rpc.send(SUBJECTS.terminals.shareRemove, { ...by(caller), terminalId: params.id, shareId: params.shareId });
  }

  @Get('push/key')
  @ApiPublic()
  @ApiOperation({ summary: "The site's VAPID public key: the applicationServerKey for PushManager.subscribe" })
  @ApiAnswer(200, 'PushKey')
  @ApiErrors('UNAVAILABLE')
  async pushKey(): Promise<JsonBody<ResponseMap['PushKey']>> {
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.terminals.pushKey, {}));
  }
}
