import { Inject, Injectable } from '@nestjs/common';
import { AppError, OAUTH_API_SCOPES, OAUTH_OIDC_SCOPES, type OAuthApiScope, type SessionInfo } from '@tinkerdesk/contracts';
import type { OAuthServer } from './oauth-provider.js';

export const OAUTH_SERVER = Symbol('OAUTH_SERVER');

/** OAuth access tokens are 64 characters (384 random bits, formats.bitsOfOpaqueRandomness): never mistaken for a session token (43). */
export const OAUTH_ACCESS_TOKEN = /^[A-Za-z0-9_-]{64}$/;

/** What an app's access token allows: whose it is, which app holds it under which grant, its scopes. */
export interface OAuthCaller extends SessionInfo {
  clientId: string;
  grantId: string;
  scopes: string[];
}

/** The scopes a route may need of an access token: a /v1 scope, or openid for userinfo. */
export type OAuthScopeNeeded = OAuthApiScope | 'openid';

const SCOPE_MEANS: Record<OAuthScopeNeeded, string> = { ...OAUTH_API_SCOPES, openid: OAUTH_OIDC_SCOPES.openid };

/**
 * Checks an app's access token on each call (no cache: a withdrawn consent or a revoked token stops
 * working at once): it must be live, for the /v1 resource, with its grant still there, and carry
 * the scope the route needs.
 */
@Injectable()
export class OAuthTokens {
  constructor(@Inject(OAUTH_SERVER) private readonly server: OAuthServer) {}

  /** The live token's caller, or undefined for a token that is unknown, expired, revoked or of an ended grant. */
  async find(token: string): Promise<OAuthCaller | undefined> {
    const { provider, resource } = this.server;
    if (!OAUTH_ACCESS_TOKEN.test(token)) return undefined;
    const accessToken = await provider.AccessToken.find(token);
    if (!accessToken || accessToken.isExpired) return undefined;
    const audience = accessToken.aud;
    const forApi = Array.isArray(audience) ? audience.includes(resource) : audience === resource;
    if (!forApi || !accessToken.accountId || !accessToken.grantId || !(await this.grantLives(accessToken.grantId))) return undefined;
    return {
      userId: accessToken.accountId,
      sessionId: `oauth:${accessToken.grantId}`,
      clientId: accessToken.clientId ?? '',
      grantId: accessToken.grantId,
      scopes: (accessToken.scope ?? '').split(' ').filter(Boolean),
    };
  }

  /** Whether an OAuth grant (a user's consent to an app, from one browser or device) still lives. */
  async grantLives(grantId: string): Promise<boolean> {
    return (await this.server.provider.Grant.find(grantId)) !== undefined;
  }

  /** Grants ended (identity committed it): the terminals their apps registered go (OAuthServer.grantsEnded). */
  grantsEnded(grantIds: string[]): Promise<void> {
    return this.server.grantsEnded(grantIds);
  }

  async verify(token: string, needed: OAuthScopeNeeded | undefined): Promise<OAuthCaller> {
    const caller = await this.find(token);
    if (!caller) throw new AppError('INVALID_TOKEN', 'the access token has expired or was revoked');
    const { scopes } = caller;
    if (!needed) {
      throw new AppError('FORBIDDEN', 'an app access token does not work on this call (insufficient_scope): it needs your own session');
    }
    if (!scopes.includes(needed)) {
      throw new AppError(
        'FORBIDDEN',
        `this access token's scopes (${scopes.join(' ') || 'none'}) do not cover this call (insufficient_scope): it needs the ${needed} scope (${SCOPE_MEANS[needed]})`,
      );
    }
    return caller;
  }
}
