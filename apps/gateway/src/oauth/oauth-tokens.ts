import { Inject, Injectable } from '@nestjs/common';
import { AppError, OAUTH_API_SCOPES, type OAuthApiScope, type SessionInfo } from '@tinkerdesk/contracts';
import type { OAuthServer } from './oauth-provider.js';

export const OAUTH_SERVER = Symbol('OAUTH_SERVER');

/** OAuth access tokens are 64 characters (384 random bits, formats.bitsOfOpaqueRandomness): never mistaken for a session token (43). */
export const OAUTH_ACCESS_TOKEN = /^[A-Za-z0-9_-]{64}$/;

/** What an app's access token allows: whose it is, which app holds it, its scopes. */
export interface OAuthCaller extends SessionInfo {
  clientId: string;
  scopes: string[];
}

/**
 * Checks an app's access token on each call (no cache: a withdrawn consent or a revoked token stops
 * working at once): it must be live, for the /v1 resource, with its grant still there, and carry
 * the scope the route needs.
 */
@Injectable()
export class OAuthTokens {
  constructor(@Inject(OAUTH_SERVER) private readonly server: OAuthServer) {}

  async verify(token: string, needed: OAuthApiScope | undefined): Promise<OAuthCaller> {
    const { provider, resource } = this.server;
    const accessToken = await provider.AccessToken.find(token);
    if (!accessToken || accessToken.isExpired) throw new AppError('INVALID_TOKEN', 'the access token has expired or was revoked');
    const audience = accessToken.aud;
    const forApi = Array.isArray(audience) ? audience.includes(resource) : audience === resource;
    const grant = accessToken.grantId ? await provider.Grant.find(accessToken.grantId) : undefined;
    if (!forApi || !grant || !accessToken.accountId) throw new AppError('INVALID_TOKEN', 'the access token has expired or was revoked');
    const scopes = (accessToken.scope ?? '').split(' ').filter(Boolean);
    if (!needed) {
      throw new AppError('FORBIDDEN', 'an app access token does not work on this call (insufficient_scope): it needs your own session');
    }
    if (!scopes.includes(needed)) {
      throw new AppError(
        'FORBIDDEN',
        `this access token's scopes (${scopes.join(' ') || 'none'}) do not cover this call (insufficient_scope): it needs the ${needed} scope (${OAUTH_API_SCOPES[needed]})`,
      );
    }
    return { userId: accessToken.accountId, sessionId: `oauth:${accessToken.grantId}`, clientId: accessToken.clientId ?? '', scopes };
  }
}
