import * as oidc from 'openid-client';
import type { OidcProviderConfig } from '../config.js';
import { isLoopbackIssuer, providerFailure } from './social-rules.js';

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeChallenge: string;
}

export interface CodeExchange {
  redirectUri: string;
  code: string;
  state: string;
  /** The iss parameter of the redirect, when the provider sent one (RFC 9207). */
  iss: string | undefined;
  codeVerifier: string;
  nonce: string;
}

/**
 * One OpenID Connect provider, through openid-client. Discovery happens on first use and is kept;
 * a failed discovery is tried again on the next call. Every HTTP request has a deadline. ID tokens
 * are checked for signature (the provider's JWKS), issuer, audience, expiry and nonce.
 */
export class OidcClient {
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(
    readonly provider: OidcProviderConfig,
    private readonly timeoutMs: number,
  ) {}

  private discover(): Promise<oidc.Configuration> {
    if (!this.configuration) {
      const { issuer, clientId, clientSecret } = this.provider;
      const auth = clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None();
      const execute = [oidc.enableNonRepudiationChecks, ...(isLoopbackIssuer(issuer) ? [oidc.allowInsecureRequests] : [])];
      this.configuration = oidc
        .discovery(new URL(issuer), clientId, undefined, auth, { timeout: this.timeoutMs / 1000, execute })
        .catch((error: unknown) => {
          this.configuration = undefined;
          throw providerFailure(error, this.provider.name, 'discovery');
        });
    }
    return this.configuration;
  }

  /** The provider's authorization endpoint with a code request: PKCE (S256), state and nonce. */
  async authorizationUrl(request: AuthorizationRequest): Promise<string> {
    const config = await this.discover();
    return oidc
      .buildAuthorizationUrl(config, {
        redirect_uri: request.redirectUri,
        scope: 'openid email profile',
        state: request.state,
        nonce: request.nonce,
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
      })
      .toString();
  }

  /**
   * Exchanges the code at the token endpoint with the PKCE verifier and answers the validated ID
   * token's claims, completed from the userinfo endpoint when the ID token carries no email.
   */
  async exchange(exchange: CodeExchange): Promise<Record<string, unknown>> {
    const config = await this.discover();
    const callback = new URL(exchange.redirectUri);
    callback.searchParams.set('code', exchange.code);
    callback.searchParams.set('state', exchange.state);
    // The redirect URI is per provider and the state is bound to it, which already rules out a
    // mix-up of providers; the issuer is filled in when the web app did not pass it on.
    const iss =
      exchange.iss ?? (config.serverMetadata().authorization_response_iss_parameter_supported ? config.serverMetadata().issuer : undefined);
    if (iss) callback.searchParams.set('iss', iss);
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: exchange.codeVerifier,
        expectedState: exchange.state,
        expectedNonce: exchange.nonce,
        idTokenExpected: true,
      });
      const claims: Record<string, unknown> = { ...tokens.claims() };
      if (typeof claims.email !== 'string' && config.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub));
        for (const key of ['email', 'email_verified', 'name'] as const) claims[key] ??= info[key];
      }
      return claims;
    } catch (error) {
      throw providerFailure(error, this.provider.name, 'exchange');
    }
  }
}
