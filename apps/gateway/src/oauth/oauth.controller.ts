import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiExcludeEndpoint, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  AppError,
  CreateOAuthAppDto,
  OAUTH_SCOPE_NAMES,
  OAUTH_STANDARD_SCOPE_NAMES,
  OAUTH_SCOPES,
  OAuthAppParamsDto,
  UpdateOAuthAppDto,
  OAuthConsentParamsDto,
  OAuthInteractionQueryDto,
  SUBJECTS,
  type OAuthAppPublicView,
  type OAuthScope,
  type Profile,
  type ResponseMap,
} from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { JsonBody } from '../http/json-body.js';
import type { Request, Response } from 'express';
import { BearerGuard, bearerToken, CurrentSession, type AuthenticatedSession } from '../auth/bearer.guard.js';
import { ApiAnswer, ApiErrors, ApiNoContent } from '../http/api-docs.js';
import { requestCookies } from '../http/cookies.js';
import { ApiCreateIdempotencyKey, IdempotencyKey, withKey } from '../http/idempotency.js';
import { RateLimit } from '../http/rate-limit.js';
import { OAUTH_LIMITS } from '../http/rate-limits.js';
import type { OAuthServer } from './oauth-provider.js';
import { OAUTH_SERVER, OAuthTokens } from './oauth-tokens.js';

type Interaction = Awaited<ReturnType<OAuthServer['provider']['interactionDetails']>>;

/** The session cookie the web app keeps (docs/web-app.md#session-and-local-database: cookies token and loggedIn). */
function cookieToken(req: Request): string | undefined {
  return requestCookies(req).find(([name]) => name === 'token')?.[1] || undefined;
}

/** RFC 6750's Authorization header: Bearer and a b64token. */
const BEARER_HEADER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

const words = (text: unknown): string[] => (typeof text === 'string' ? text.split(' ').filter(Boolean) : []);

/**
 * OAuth for integrators, the gateway's part (the protocol endpoints are oidc-provider's, mounted at
 * /v1/oauth2): the consent page's details, granting (GET /v1/oauth2/setup) and refusing (GET
 * /v1/oauth2/reject) an app's request, the apps a user registered, and the consents they gave.
 */
@ApiTags('oauth2')
@Controller('v1/oauth2')
export class OAuthController {
  constructor(
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(OAUTH_SERVER) private readonly server: OAuthServer,
    @Inject(OAuthTokens) private readonly tokens: OAuthTokens,
  ) {}

  /** The interaction this browser started (its cookie), which must be the one named. */
  private async interaction(req: Request, res: Response, uid: string): Promise<Interaction> {
    let interaction: Interaction;
    try {
      interaction = await this.server.provider.interactionDetails(req, res);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError(
        'LINK_INVALID',
        'this authorization request has expired or was started in another browser: start again from the app',
      );
    }
    if (interaction.uid !== uid) {
      throw new AppError('LINK_INVALID', 'this authorization request belongs to another sign-in: start again from the app');
    }
    return interaction;
  }

  /** The scopes an interaction asks for that its app may have. */
  private async requestedScopes(interaction: Interaction): Promise<{ clientId: string; app: OAuthAppPublicView; scopes: OAuthScope[] }> {
    const clientId = String(interaction.params.client_id ?? '');
    const client = await this.server.provider.Client.find(clientId);
    if (!client) throw new AppError('LINK_INVALID', 'the app of this request no longer exists');
    const allowed = new Set([...words(client.scope), ...words(client.metadata().api_scope)]);
    const asked = new Set(words(interaction.params.scope));
    const metadata = client.metadata();
    const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);
    return {
      clientId,
      app: {
        id: clientId,
        name: client.clientName ?? clientId,
        developerName: text(metadata.developer_name),
        developerContact: text(metadata.developer_contact),
        homepageUrl: text(metadata.client_uri),
        privacyUrl: text(metadata.policy_uri),
        termsUrl: text(metadata.tos_uri),
      },
      scopes: OAUTH_SCOPE_NAMES.filter((s) => asked.has(s) && allowed.has(s)),
    };
  }

  @Get('interaction/:interaction/app')
  @ApiOperation({
    summary: 'Which app an authorization request is from (the sign-in page before consent names it)',
    description:
      "No account needed: the request's interaction cookie, set in the browser that started it, is. Answers only the app's public details, never the scopes' grant state.",
  })
  @ApiAnswer(200, 'OAuthInteractionApp')
  @ApiErrors('LINK_INVALID')
  async asking(
    @Param() params: OAuthInteractionQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ResponseMap['OAuthInteractionApp']> {
    const interaction = await this.interaction(req, res, params.interaction);
    return { success: true, app: (await this.requestedScopes(interaction)).app };
  }

  @Get('interaction/:interaction')
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'The consent page: which app asks for which scopes, and where the browser goes back to' })
  @ApiAnswer(200, 'OAuthInteraction')
  @ApiErrors('LINK_INVALID')
  async details(
    @CurrentSession() session: AuthenticatedSession,
    @Param() params: OAuthInteractionQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ResponseMap['OAuthInteraction']> {
    const interaction = await this.interaction(req, res, params.interaction);
    const { app, scopes } = await this.requestedScopes(interaction);
    const grant = interaction.grantId ? await this.server.provider.Grant.find(interaction.grantId) : undefined;
    const before =
      grant && grant.accountId === session.userId
        ? new Set([...words(grant.getOIDCScope()), ...words(grant.getResourceScopeFiltered(this.server.resource, OAUTH_SCOPE_NAMES))])
        : new Set<string>();
    return {
      success: true,
      interaction: interaction.uid,
      app,
      scopes: scopes.map((s) => ({ name: s, description: OAUTH_SCOPES[s] })),
      redirectOrigin: new URL(String(interaction.params.redirect_uri)).origin,
      grantedBefore: OAUTH_SCOPE_NAMES.filter((s) => before.has(s)),
    };
  }

  @Get('setup')
  @ApiOperation({
    summary: "Allow the app's request (the consent page's button): the browser goes back to the app with a code",
    description:
      "A browser navigation from the consent page, with the interaction's cookie and the signed-in user's session (the token cookie or a bearer token). Answers 303 to the app's redirect URI.",
  })
  @ApiResponse({ status: 303, description: "To the app's redirect_uri with code, state and iss" })
  @ApiErrors('UNAUTHORIZED', 'INVALID_TOKEN', 'LINK_INVALID')
  async setup(@Query() query: OAuthInteractionQueryDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const token = bearerToken(req) ?? cookieToken(req);
    if (!token) throw new AppError('UNAUTHORIZED', 'sign in to Tinkerdesk to allow an app');
    const { userId } = await this.rpc.send(SUBJECTS.identity.sessionVerify, { token });
    const interaction = await this.interaction(req, res, query.interaction);
    const { clientId, scopes } = await this.requestedScopes(interaction);
    const { provider, resource } = this.server;
    const earlier = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    const grant =
      earlier && earlier.accountId === userId && earlier.clientId === clientId
        ? earlier
        : new provider.Grant({ accountId: userId, clientId });
    // The standard scopes (openid, email, profile) are OpenID Connect scopes (the ID token) and go in
    // the /v1 access token too (userinfo answers for them); profile is also a /v1 scope.
    const standard = scopes.filter((s) => (OAUTH_STANDARD_SCOPE_NAMES as readonly string[]).includes(s));
    if (standard.length > 0) grant.addOIDCScope(standard.join(' '));
    if (scopes.length > 0) grant.addResourceScope(resource, scopes.join(' '));
    const grantId = await grant.save();
    const returnTo = await provider.interactionResult(
      req,
      res,
      { login: { accountId: userId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    res.redirect(303, returnTo);
  }

  @Get('reject')
  @ApiOperation({ summary: "Refuse the app's request: the browser goes back to the app with error=access_denied" })
  @ApiResponse({ status: 303, description: "To the app's redirect_uri with error=access_denied and state" })
  @ApiErrors('LINK_INVALID')
  async reject(@Query() query: OAuthInteractionQueryDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.interaction(req, res, query.interaction);
    const returnTo = await this.server.provider.interactionResult(
      req,
      res,
      { error: 'access_denied', error_description: 'the user did not allow the app' },
      { mergeWithLastSubmission: false },
    );
    res.redirect(303, returnTo);
  }

  @Post('apps')
  @HttpCode(201)
  @UseGuards(BearerGuard)
  @RateLimit(OAUTH_LIMITS.register)
  @ApiBearerAuth()
  @ApiOperation({
    summary:
      'Register an app {name, redirectUris, scopes, tokenEndpointAuthMethod?}: 201 with its client_id and client secret (shown once)',
  })
  @ApiCreateIdempotencyKey()
  @ApiAnswer(201, 'OAuthAppCreated')
  @ApiErrors('CONFLICT')
  async createApp(
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: CreateOAuthAppDto,
    @IdempotencyKey() key: string | undefined,
  ): Promise<ResponseMap['OAuthAppCreated']> {
    return {
      success: true,
      ...(await this.rpc.send(SUBJECTS.identity.oauthAppCreate, { ...body, userId: session.userId, ...withKey(key) })),
    };
  }

  @Get('apps')
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'The apps you registered' })
  @ApiAnswer(200, 'OAuthApps')
  async apps(@CurrentSession() session: AuthenticatedSession): Promise<JsonBody<ResponseMap['OAuthApps']>> {
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.identity.oauthAppList, { userId: session.userId }));
  }

  @Delete('apps/:id')
  @HttpCode(204)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Delete an app you registered (204): every consent and token of it ends' })
  @ApiNoContent()
  @ApiErrors('NOT_FOUND')
  async deleteApp(@CurrentSession() session: AuthenticatedSession, @Param() params: OAuthAppParamsDto): Promise<void> {
    const { grantIds } = await this.rpc.send(SUBJECTS.identity.oauthAppDelete, { userId: session.userId, appId: params.id });
    await this.tokens.grantsEnded(grantIds);
  }

  @Patch('apps/:id')
  @UseGuards(BearerGuard)
  @RateLimit(OAUTH_LIMITS.register)
  @ApiBearerAuth()
  @ApiOperation({
    summary:
      "Change an app you registered {name?, redirectUris?, developerName?, developerContact?, homepageUrl?, privacyUrl?, termsUrl?}: what is left out stays, an empty text clears it; another user's app is 404",
  })
  @ApiAnswer(200, 'OAuthAppUpdated')
  @ApiErrors('NOT_FOUND')
  async updateApp(
    @CurrentSession() session: AuthenticatedSession,
    @Param() params: OAuthAppParamsDto,
    @Body() body: UpdateOAuthAppDto,
  ): Promise<ResponseMap['OAuthAppUpdated']> {
    return {
      success: true,
      ...(await this.rpc.send(SUBJECTS.identity.oauthAppUpdate, { ...body, userId: session.userId, appId: params.id })),
    };
  }

  @Post('apps/:id/secret')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @RateLimit(OAUTH_LIMITS.register)
  @ApiBearerAuth()
  @ApiOperation({ summary: "Replace a server app's client secret: the new one is shown once, the old one stops working at once" })
  @ApiAnswer(200, 'OAuthAppCreated')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async replaceSecret(
    @CurrentSession() session: AuthenticatedSession,
    @Param() params: OAuthAppParamsDto,
  ): Promise<ResponseMap['OAuthAppCreated']> {
    return { success: true, ...(await this.rpc.send(SUBJECTS.identity.oauthAppSecret, { userId: session.userId, appId: params.id })) };
  }

  @Get('consents')
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'The apps you allowed, once per app (however many browsers or devices authorized it), with their scopes' })
  @ApiAnswer(200, 'OAuthConsents')
  async consents(@CurrentSession() session: AuthenticatedSession): Promise<JsonBody<ResponseMap['OAuthConsents']>> {
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.identity.oauthConsentList, { userId: session.userId }));
  }

  @Delete('consents/:id')
  @HttpCode(204)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary:
      'Withdraw the consent given to an app (204): every code, access and refresh token the app holds for you, from every browser or device, stops working at once, and the terminals it registered are removed',
  })
  @ApiNoContent()
  @ApiErrors('NOT_FOUND')
  async withdraw(@CurrentSession() session: AuthenticatedSession, @Param() params: OAuthConsentParamsDto): Promise<void> {
    const { grantIds } = await this.rpc.send(SUBJECTS.identity.oauthConsentWithdraw, { userId: session.userId, consentId: params.id });
    await this.tokens.grantsEnded(grantIds);
  }

  @Get('me')
  @ApiExcludeEndpoint()
  userinfo(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answerUserinfo(req, res);
  }

  @Post('me')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  userinfoPost(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answerUserinfo(req, res);
  }

  /** A browser app reads userinfo from the origins of its redirect URIs (oidc-provider's clientBasedCORS), whatever CORS_ORIGINS says. */
  private async allowAppOrigin(req: Request, res: Response, clientId: string): Promise<void> {
    const origin = req.header('origin');
    if (!origin) return;
    const client = await this.server.provider.Client.find(clientId);
    const origins = (client?.redirectUris ?? []).map((uri) => new URL(uri).origin);
    res.setHeader('vary', 'origin');
    if (origins.includes(origin)) res.setHeader('access-control-allow-origin', origin);
    else res.removeHeader('access-control-allow-origin');
  }

  /**
   * OpenID Connect userinfo (the discovery document's userinfo_endpoint), in the protocol's form
   * (RFC 6750 errors with WWW-Authenticate): an access token with the openid scope answers sub, with
   * email: email and email_verified, with profile: name and zoneinfo.
   */
  private async answerUserinfo(req: Request, res: Response): Promise<void> {
    res.setHeader('cache-control', 'no-store');
    const refuse = (status: number, error: string, description: string, scope?: string) => {
      const realm = `realm="${this.server.issuer}"`;
      const header = `Bearer ${realm}, error="${error}", error_description="${description}"${scope ? `, scope="${scope}"` : ''}`;
      res.status(status).setHeader('www-authenticate', header);
      res.json({ error, error_description: description, ...(scope ? { scope } : {}) });
    };
    const header = req.header('authorization');
    if (header === undefined) return refuse(400, 'invalid_request', 'no access token provided');
    const match = BEARER_HEADER.exec(header);
    if (!match?.[1]) return refuse(400, 'invalid_request', 'the Authorization header must be Bearer and an access token');
    const caller = await this.tokens.find(match[1]);
    if (!caller) return refuse(401, 'invalid_token', 'invalid token provided');
    await this.allowAppOrigin(req, res, caller.clientId);
    if (!caller.scopes.includes('openid')) return refuse(403, 'insufficient_scope', 'access token missing openid scope', 'openid');
    let profile: Profile;
    try {
      profile = await this.rpc.send(SUBJECTS.identity.userMe, { userId: caller.userId });
    } catch (error) {
      if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'INVALID_TOKEN'))
        return refuse(401, 'invalid_token', 'invalid token provided');
      throw error;
    }
    res.status(200).json({
      sub: caller.userId,
      ...(caller.scopes.includes('email') ? { email: profile.email, email_verified: profile.verified } : {}),
      ...(caller.scopes.includes('profile') ? { name: profile.name, zoneinfo: profile.tz } : {}),
    });
  }
}
