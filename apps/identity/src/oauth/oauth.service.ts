import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  OAUTH_API_SCOPES,
  OAUTH_STANDARD_SCOPE_NAMES,
  OAUTH_SCOPE_NAMES,
  type CreateOAuthAppMessage,
  type OAuthAppCreated,
  type OAuthAppView,
  type OAuthClientMetadata,
  type OAuthConsentView,
  type OAuthGrantsEnded,
  type OAuthScope,
  type OAuthAppDetailsDto,
  type OAuthAppUpdated,
  type UpdateOAuthAppMessage,
} from '@tinkerdesk/contracts';
import { createUnderKey } from '@tinkerdesk/persistence';
import { hashToken } from '../accounts/tokens.js';
import { OAuthRepository, type OAuthAppDetailsRow, type OAuthAppRow } from './oauth.repository.js';

/** Apps one account may register. */
export const MAX_APPS_PER_USER = 20;

const appView = (app: OAuthAppRow): OAuthAppView => ({
  id: app.id,
  name: app.name,
  redirectUris: app.redirectUris,
  scopes: app.scopes,
  tokenEndpointAuthMethod: app.authMethod,
  developerName: app.developerName,
  developerContact: app.developerContact,
  homepageUrl: app.homepageUrl,
  privacyUrl: app.privacyUrl,
  termsUrl: app.termsUrl,
  created: app.created.toISOString(),
});

/** A given text, trimmed; an empty one clears the field (null); left out, it stays as it is (undefined). */
const given = (value: string | undefined): string | null | undefined => (value === undefined ? undefined : value.trim() || null);

/** The developer and links an input gives, only those it names. */
function details(input: OAuthAppDetailsDto): Partial<OAuthAppDetailsRow> {
  const fields = {
    developerName: given(input.developerName),
    developerContact: given(input.developerContact),
    homepageUrl: given(input.homepageUrl),
    privacyUrl: given(input.privacyUrl),
    termsUrl: given(input.termsUrl),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

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

  /**
   * Registers an app. Under an Idempotency-Key once: a retry (or the same request alongside) answers the
   * same app; its secret is kept only as a hash, so a confidential app's retry gets a new secret and the
   * one of an earlier answer (lost on its way, as a retry supposes) stops working at once.
   */
  async createApp(input: CreateOAuthAppMessage): Promise<OAuthAppCreated> {
    const authMethod = input.tokenEndpointAuthMethod ?? 'client_secret_basic';
    const secret = authMethod === 'none' ? null : newSecret();
    const id = randomUUID();
    const app = await this.repo.insertApp(
      {
        id,
        userId: input.userId,
        name: input.name.trim(),
        redirectUris: [...new Set(input.redirectUris)],
        scopes: OAUTH_SCOPE_NAMES.filter((s) => input.scopes.includes(s)),
        authMethod,
        secretHash: secret ? hashToken(secret) : null,
        developerName: null,
        developerContact: null,
        homepageUrl: null,
        privacyUrl: null,
        termsUrl: null,
        ...details(input),
      },
      MAX_APPS_PER_USER,
      createUnderKey('oauth.app.create', input.userId, input),
    );
    if (!app) throw new AppError('CONFLICT', `an account may register at most ${MAX_APPS_PER_USER} apps; delete one first`);
    if (app.id !== id && app.secretHash !== null) return this.replaceSecret(input.userId, app.id);
    return { app: appView(app), clientSecret: app.id === id ? secret : null };
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

  /** Changes the user's app (name, redirect URIs, developer, links); another user's app is not found. */
  async updateApp(input: UpdateOAuthAppMessage): Promise<OAuthAppUpdated> {
    const changes: Partial<OAuthAppDetailsRow> = {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.redirectUris ? { redirectUris: [...new Set(input.redirectUris)] } : {}),
      ...details(input),
    };
    const app = await this.repo.updateApp(input.userId, input.appId, changes);
    if (!app) throw new AppError('NOT_FOUND', 'no such app');
    return { app: appView(app) };
  }

  async listApps(userId: string): Promise<{ apps: OAuthAppView[] }> {
    return { apps: (await this.repo.apps(userId)).map(appView) };
  }

  /** Deletes the user's app with every consent and token of it; the grants that ended. */
  async deleteApp(userId: string, appId: string): Promise<OAuthGrantsEnded> {
    const grantIds = await this.repo.deleteApp(userId, appId);
    if (!grantIds) throw new AppError('NOT_FOUND', 'no such app');
    return { grantIds };
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
      // The OpenID Connect standard scopes it may ask for (openid always; email, profile when registered).
      scope: OAUTH_STANDARD_SCOPE_NAMES.filter((s) => s === 'openid' || app.scopes.includes(s)).join(' '),
      api_scope: app.scopes.filter((s) => s in OAUTH_API_SCOPES).join(' '),
      ...(app.developerName ? { developer_name: app.developerName } : {}),
      ...(app.developerContact ? { developer_contact: app.developerContact } : {}),
      ...(app.homepageUrl ? { client_uri: app.homepageUrl } : {}),
      ...(app.privacyUrl ? { policy_uri: app.privacyUrl } : {}),
      ...(app.termsUrl ? { tos_uri: app.termsUrl } : {}),
    };
  }

  /** The user's consents: one per app, however many browsers or devices authorized it (each a grant). */
  async consents(userId: string): Promise<{ consents: OAuthConsentView[] }> {
    const byApp = new Map<string, { appName: string; words: Set<OAuthScope>; created: Date }>();
    for (const g of await this.repo.liveGrants(userId)) {
      const consent = byApp.get(g.clientId) ?? { appName: g.appName, words: new Set<OAuthScope>(), created: g.created };
      for (const s of grantScopes(g.payload)) consent.words.add(s);
      if (g.created < consent.created) consent.created = g.created;
      byApp.set(g.clientId, consent);
    }
    return {
      consents: [...byApp].map(([appId, c]) => ({
        id: appId,
        appId,
        appName: c.appName,
        scopes: OAUTH_SCOPE_NAMES.filter((s) => c.words.has(s)),
        created: c.created.toISOString(),
      })),
    };
  }

  /**
   * Withdraws the consent given to an app (named by the app's id, or by one of its grants): every
   * grant of that app for the user, and every code and token issued under them, stop working.
   */
  async withdraw(userId: string, id: string): Promise<OAuthGrantsEnded> {
    const grantIds = await this.repo.endConsent(userId, id);
    if (grantIds.length === 0) throw new AppError('NOT_FOUND', 'no such consent');
    return { grantIds };
  }
}
