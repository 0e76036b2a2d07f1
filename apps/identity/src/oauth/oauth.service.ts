import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  OAUTH_API_SCOPES,
  OAUTH_OIDC_SCOPES,
  OAUTH_SCOPE_NAMES,
  type CreateOAuthAppMessage,
  type OAuthAppCreated,
  type OAuthAppView,
  type OAuthClientMetadata,
  type OAuthConsentView,
  type OAuthScope,
} from '@tinkerdesk/contracts';
import { hashToken } from '../accounts/tokens.js';
import { OAuthRepository, type OAuthAppRow } from './oauth.repository.js';

/** Apps one account may register. */
export const MAX_APPS_PER_USER = 20;

const appView = (app: OAuthAppRow): OAuthAppView => ({
  id: app.id,
  name: app.name,
  redirectUris: app.redirectUris,
  scopes: app.scopes,
  tokenEndpointAuthMethod: app.authMethod,
  created: app.created.toISOString(),
});

/** A confidential app's secret: 256 random bits, shown once, kept as its SHA-256. */
const newSecret = (): string => `tds_${randomBytes(32).toString('base64url')}`;

/** The scopes a grant holds: its OpenID Connect scopes and those of every resource. */
export function grantScopes(payload: Record<string, unknown>): OAuthScope[] {
  const words = new Set<string>();
  const openid = payload.openid as { scope?: unknown } | undefined;
  if (typeof openid?.scope === 'string') for (const w of openid.scope.split(' ')) words.add(w);
  const resources = payload.resources as Record<string, unknown> | undefined;
  for (const scope of Object.values(resources ?? {})) if (typeof scope === 'string') for (const w of scope.split(' ')) words.add(w);
  return OAUTH_SCOPE_NAMES.filter((s) => words.has(s));
}

/** Registered apps (oidc-provider's clients) and the consents users gave them. */
@Injectable()
export class OAuthService {
  constructor(@Inject(OAuthRepository) private readonly repo: OAuthRepository) {}

  async createApp(input: CreateOAuthAppMessage): Promise<OAuthAppCreated> {
    const authMethod = input.tokenEndpointAuthMethod ?? 'client_secret_basic';
    const secret = authMethod === 'none' ? null : newSecret();
    const app = await this.repo.insertApp(
      {
        id: randomUUID(),
        userId: input.userId,
        name: input.name.trim(),
        redirectUris: [...new Set(input.redirectUris)],
        scopes: OAUTH_SCOPE_NAMES.filter((s) => input.scopes.includes(s)),
        authMethod,
        secretHash: secret ? hashToken(secret) : null,
      },
      MAX_APPS_PER_USER,
    );
    if (!app) throw new AppError('CONFLICT', `an account may register at most ${MAX_APPS_PER_USER} apps; delete one first`);
    return { app: appView(app), clientSecret: secret };
  }

  /** A new secret for a confidential app (shown once); the old one stops working at once. A public app has none. */
  async replaceSecret(userId: string, appId: string): Promise<OAuthAppCreated> {
    const secret = newSecret();
    const app = await this.repo.replaceSecret(userId, appId, hashToken(secret));
    if (app) return { app: appView(app), clientSecret: secret };
    const existing = await this.repo.app(appId);
    if (existing?.userId === userId)
      throw new AppError('CONFLICT', 'a public app (no secret) proves itself with PKCE: it has no secret to replace');
    throw new AppError('NOT_FOUND', 'no such app');
  }

  async listApps(userId: string): Promise<{ apps: OAuthAppView[] }> {
    return { apps: (await this.repo.apps(userId)).map(appView) };
  }

  async deleteApp(userId: string, appId: string): Promise<void> {
    if (!(await this.repo.deleteApp(userId, appId))) throw new AppError('NOT_FOUND', 'no such app');
  }

  /** oidc-provider's view of an app; null for an unknown client_id (it answers invalid_client). */
  async client(clientId: string): Promise<OAuthClientMetadata | null> {
    if (!/^[0-9a-f-]{36}$/i.test(clientId)) return null;
    const app = await this.repo.app(clientId);
    if (!app) return null;
    return {
      client_id: app.id,
      ...(app.secretHash ? { client_secret: app.secretHash } : {}),
      client_name: app.name,
      redirect_uris: app.redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: app.authMethod,
      scope: ['openid', ...app.scopes.filter((s) => s in OAUTH_OIDC_SCOPES && s !== 'openid')].join(' '),
      api_scope: app.scopes.filter((s) => s in OAUTH_API_SCOPES).join(' '),
    };
  }

  async consents(userId: string): Promise<{ consents: OAuthConsentView[] }> {
    const grants = await this.repo.grants(userId);
    return {
      consents: grants.map((g) => ({
        id: g.id,
        appId: g.clientId,
        appName: g.appName,
        scopes: grantScopes(g.payload),
        created: g.created.toISOString(),
      })),
    };
  }

  /** Withdraws a consent: the grant and every code and token issued under it stop working. */
  async withdraw(userId: string, grantId: string): Promise<void> {
    if ((await this.repo.grantOwner(grantId)) !== userId) throw new AppError('NOT_FOUND', 'no such consent');
    await this.repo.revokeGrant(grantId);
  }
}
