import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  isOidcProvider,
  OIDC_PROVIDER_NAMES,
  OIDC_PROVIDERS,
  type OidcAuthorizeResult,
  type OidcExchangeResult,
  type OidcProvidersResult,
} from '@tinkerdesk/contracts';
import { calculatePKCECodeChallenge, randomNonce, randomPKCECodeVerifier, randomState } from 'openid-client';
import { AccountsService, PUBLIC_URL } from '../accounts/accounts.service.js';
import { hashToken } from '../accounts/tokens.js';
import type { OidcProviderConfig } from '../config.js';
import { OidcClient } from './oidc-client.js';
import { OidcLoginsRepository } from './oidc-logins.repository.js';
import { identityFromClaims, PENDING_LOGIN_MINUTES, redirectUriOf } from './social-rules.js';

export const OIDC_PROVIDER_CONFIGS = Symbol('OIDC_PROVIDER_CONFIGS');
export const OIDC_TIMEOUT_MS = Symbol('OIDC_TIMEOUT_MS');

/** Social sign-in with OpenID Connect: authorization code flow with PKCE (S256), state and nonce. */
@Injectable()
export class SocialService {
  private readonly clients: Map<string, OidcClient>;

  constructor(
    @Inject(OidcLoginsRepository) private readonly logins: OidcLoginsRepository,
    @Inject(AccountsService) private readonly accounts: AccountsService,
    @Inject(OIDC_PROVIDER_CONFIGS) providers: OidcProviderConfig[],
    @Inject(OIDC_TIMEOUT_MS) timeoutMs: number,
    @Inject(PUBLIC_URL) private readonly publicUrl: string,
  ) {
    this.clients = new Map(providers.map((p) => [p.id, new OidcClient(p, timeoutMs)]));
  }

  list(): OidcProvidersResult {
    return { providers: [...this.clients.values()].map(({ provider }) => ({ id: provider.id, name: provider.name })) };
  }

  private client(provider: string): OidcClient {
    const client = this.clients.get(provider);
    if (client) return client;
    if (isOidcProvider(provider))
      throw new AppError('NOT_FOUND', `sign-in with ${OIDC_PROVIDER_NAMES[provider]} is not configured on this server`);
    throw new AppError('NOT_FOUND', `unknown sign-in provider '${provider}' (known: ${OIDC_PROVIDERS.join(', ')})`);
  }

  /** Starts a sign-in: remembers state (hashed), PKCE verifier and nonce, and answers the provider's URL. */
  async authorize(provider: string, returnTo: string | undefined): Promise<OidcAuthorizeResult> {
    const client = this.client(provider);
    const state = randomState();
    const nonce = randomNonce();
    const codeVerifier = randomPKCECodeVerifier();
    const url = await client.authorizationUrl({
      redirectUri: redirectUriOf(this.publicUrl, client.provider.id),
      state,
      nonce,
      codeChallenge: await calculatePKCECodeChallenge(codeVerifier),
    });
    await this.logins.insert({
      provider: client.provider.id,
      stateHash: hashToken(state),
      codeVerifier,
      nonce,
      returnTo: returnTo ?? null,
      expiresAt: new Date(Date.now() + PENDING_LOGIN_MINUTES * 60_000),
    });
    return { url };
  }

  /** Finishes a sign-in: uses the pending login once, exchanges the code, signs in or creates the account. */
  async exchange(provider: string, code: string, state: string, iss: string | undefined): Promise<OidcExchangeResult> {
    const client = this.client(provider);
    const pending = await this.logins.consume(hashToken(state));
    if (!pending) {
      throw new AppError('VALIDATION_FAILED', 'this sign-in is unknown, was finished already or has expired; start the sign-in again');
    }
    if (pending.provider !== client.provider.id) {
      throw new AppError(
        'VALIDATION_FAILED',
        `this sign-in was started with ${pending.provider}, not ${provider}; start the sign-in again`,
      );
    }
    const claims = await client.exchange({
      redirectUri: redirectUriOf(this.publicUrl, client.provider.id),
      code,
      state,
      iss,
      codeVerifier: pending.codeVerifier,
      nonce: pending.nonce,
    });
    const result = await this.accounts.signInWithProvider(identityFromClaims(client.provider.id, client.provider.name, claims));
    return { ...result, returnTo: pending.returnTo };
  }
}
