import { type CanActivate, createParamDecorator, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError, SUBJECTS, type SessionInfo } from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import type { Request } from 'express';
import { OAuthScopeNeeded } from '../oauth/oauth-scope.js';
import { OAUTH_ACCESS_TOKEN, OAuthTokens } from '../oauth/oauth-tokens.js';
import { SessionCache } from './session-cache.js';

export interface AuthenticatedSession extends SessionInfo {
  token: string;
  /** Set when an app's OAuth access token made the call: the app and the grant it holds. */
  oauth?: { clientId: string; grantId: string };
}

type AuthenticatedRequest = Request & { session?: AuthenticatedSession };

/** The bearer token of a request, or undefined when there is none. */
export function bearerToken(req: Request): string | undefined {
  const header = req.header('authorization');
  const match = header ? /^Bearer\s+(\S{1,200})$/i.exec(header) : null;
  return match?.[1];
}

/**
 * Every protected call is checked here, on the server: the token must belong to a live session
 * (identity answers INVALID_TOKEN otherwise). A check is remembered for SESSION_CACHE_TTL_MS unless
 * identity revokes the session first (SessionCache). An app's OAuth access token (64 characters) is
 * accepted only where the route names the scope it needs (@OAuthScope) and the token carries it.
 */
@Injectable()
export class BearerGuard implements CanActivate {
  constructor(
    @Inject(RpcClient) protected readonly rpc: RpcClient,
    @Inject(SessionCache) private readonly sessions: SessionCache,
    @Inject(OAuthTokens) protected readonly oauthTokens: OAuthTokens,
    @Inject(Reflector) private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(req);
    if (!token) throw new AppError('UNAUTHORIZED', 'this call needs a bearer token (Authorization: Bearer <token>)');
    if (OAUTH_ACCESS_TOKEN.test(token)) {
      const needed = this.reflector.getAllAndOverride(OAuthScopeNeeded, [context.getHandler(), context.getClass()]);
      const caller = await this.oauthTokens.verify(token, needed);
      req.session = {
        userId: caller.userId,
        sessionId: caller.sessionId,
        token,
        oauth: { clientId: caller.clientId, grantId: caller.grantId },
      };
      return true;
    }
    req.session = { ...(await verifiedSession(this.rpc, this.sessions, token)), token };
    return true;
  }
}

/**
 * The live session of a browser's session token, remembered (SessionCache) or asked of identity
 * (INVALID_TOKEN when there is none): what the BearerGuard checks, and what a signed-in visitor's
 * /account page is painted for (web/account-page.ts).
 */
export async function verifiedSession(rpc: RpcClient, sessions: SessionCache, token: string): Promise<SessionInfo> {
  let session = sessions.get(token);
  if (!session) {
    session = await rpc.send(SUBJECTS.identity.sessionVerify, { token });
    sessions.set(token, session);
  }
  return session;
}

/** The session the BearerGuard verified. */
export const CurrentSession = createParamDecorator((_data: unknown, context: ExecutionContext): AuthenticatedSession => {
  const session = context.switchToHttp().getRequest<AuthenticatedRequest>().session;
  if (!session) throw new AppError('UNAUTHORIZED', 'this call needs a bearer token');
  return session;
});

/**
 * For calls that anyone may make and that send the token when there is one (ordering, paying, an
 * order's page: docs/api.md "Who sees an order"): a token, when sent, must be valid (INVALID_TOKEN otherwise, so the
 * web app drops it); without one the request goes on as a visitor's.
 */
@Injectable()
export class OptionalBearerGuard extends BearerGuard {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (req.header('authorization') === undefined) return true;
    return super.canActivate(context);
  }
}

/** The verified session of an OptionalBearerGuard route, or undefined for a visitor. */
export const OptionalSession = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedSession | undefined =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().session,
);
