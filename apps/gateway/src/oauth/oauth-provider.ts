import { createHash, generateKeyPairSync, createPrivateKey, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  OAUTH_API_SCOPE_NAMES,
  OAUTH_CLIENT_ID,
  OAUTH_CONSENT_PATH,
  OAUTH_MODELS,
  OAUTH_PATH,
  OAUTH_RECORD_ID,
  OAUTH_STANDARD_SCOPE_NAMES,
  SUBJECTS,
  inputProblem,
  type OAuthModel,
} from '@tinkerdesk/contracts';
import type { Logger, RpcClient } from '@tinkerdesk/nest-common';
import type { Adapter, AdapterPayload, Configuration, JWK } from 'oidc-provider';
import type Provider from 'oidc-provider';

export interface OAuthSettings {
  publicUrl: string;
  /** PEM of the RSA key that signs ID tokens (published in the JWKS); unset: one made for this process. */
  signingKey: string | undefined;
  /** Secrets that sign the provider's cookies (the first signs, all verify); unset: one made for this process. */
  cookieKeys: string[];
  codeTtlSeconds: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Believe X-Forwarded-Proto (the gateway is behind a proxy that ends TLS). */
  behindProxy: boolean;
}

export interface OAuthServer {
  provider: Provider;
  /** The /v1 resource: the audience of every access token. */
  resource: string;
  issuer: string;
  /**
   * After identity ended grants (committed): the terminals their apps registered are removed. A
   * failure is logged only: a terminal token works only while its grant lives (checked on each use,
   * TerminalOrUserGuard), and that check tells the terminals service again.
   */
  grantsEnded(grantIds: string[]): Promise<void>;
  /** Express middleware for OAUTH_PATH: the provider's endpoints; the gateway's own routes there go on. */
  handle(req: IncomingMessage & { url?: string }, res: ServerResponse, next: () => void): void;
}

/**
 * oidc-provider's endpoints under OAUTH_PATH (authorization and its resume, token, introspection,
 * revocation, JWKS, end session, pushed requests, discovery); every other path there is the
 * gateway's (userinfo, consent, apps, consents) or unknown, answered by Nest in the envelope.
 * Userinfo (/me) is the gateway's: oidc-provider's refuses every access token bound to a resource,
 * and every token here is for /v1 (one token serves /v1 and userinfo).
 */
const PROVIDER_ROUTES =
  /^\/(auth(\/[A-Za-z0-9_-]+)?|token(\/(introspection|revocation))?|jwks|session\/end(\/(confirm|success))?|request|\.well-known\/openid-configuration)\/?(\?|$)/;

/** Userinfo, the gateway's own route (OAuthController): browser apps call it from their origins. */
const USERINFO_ROUTE = /^\/me\/?(\?|$)/;

/**
 * The CORS preflight of userinfo, for any origin (as oidc-provider's own userinfo does): it carries
 * no token, so no app is known yet; the answer itself allows only the origins of the token's app
 * (OAuthController), whatever CORS_ORIGINS says for the rest of /v1.
 */
function userinfoPreflight(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  res.statusCode = 204;
  if (origin) {
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('access-control-allow-methods', 'GET, POST');
    res.setHeader('access-control-allow-headers', 'authorization');
    res.setHeader('access-control-max-age', '600');
    res.setHeader('vary', 'origin');
  }
  res.end();
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * oidc-provider's storage: every record goes to identity over NATS (identity owns the tables); a
 * client is a registered app, looked up by its client_id. Ids come from requests (client_id, code,
 * refresh_token, token, cookies): one that cannot name a record (too long, other characters, NUL) is
 * answered as unknown here, so the provider answers the protocol's error (invalid_client,
 * invalid_grant, active:false) instead of failing on a refused lookup.
 */
function natsAdapter(rpc: RpcClient, model: string, logger: Logger, refuse: (problem: string) => Error): Adapter {
  const known = (OAUTH_MODELS as readonly string[]).includes(model);
  const kind = model as OAuthModel;
  const unsupported = () => Promise.reject(new Error(`oidc-provider model ${model} is not stored`));
  const recordId = (id: unknown): id is string => typeof id === 'string' && OAUTH_RECORD_ID.test(id);
  return {
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      if (!known) return unsupported();
      // A record holds the request's parameters (state, nonce, scope…): one PostgreSQL cannot store
      // (NUL, a lone surrogate) is the client's invalid_request, not a failed write.
      const problem = inputProblem(payload, 'the request');
      if (problem) throw refuse(problem);
      await rpc.send(SUBJECTS.identity.oauthPayloadUpsert, {
        model: kind,
        id,
        payload: payload as Record<string, unknown>,
        expiresIn: Math.max(0, Math.ceil(expiresIn || 0)),
      });
    },
    async find(id: string) {
      if (model === 'Client') {
        if (typeof id !== 'string' || !OAUTH_CLIENT_ID.test(id)) return undefined;
        const { client } = await rpc.send(SUBJECTS.identity.oauthClientGet, { clientId: id });
        return (client ?? undefined) as AdapterPayload | undefined;
      }
      if (!known || !recordId(id)) return undefined;
      const { payload } = await rpc.send(SUBJECTS.identity.oauthPayloadFind, { model: kind, id });
      return (payload ?? undefined) as AdapterPayload | undefined;
    },
    async findByUid(uid: string) {
      if (!recordId(uid)) return undefined;
      const { payload } = await rpc.send(SUBJECTS.identity.oauthPayloadFindByUid, { uid });
      return (payload ?? undefined) as AdapterPayload | undefined;
    },
    findByUserCode: async () => undefined,
    async consume(id: string) {
      if (known && recordId(id)) await rpc.send(SUBJECTS.identity.oauthPayloadConsume, { model: kind, id });
    },
    async destroy(id: string) {
      if (known && recordId(id)) await rpc.send(SUBJECTS.identity.oauthPayloadDestroy, { model: kind, id });
    },
    // The provider ends a grant (a code or refresh token used twice): every record of it goes, then
    // the terminals its app registered.
    async revokeByGrantId(grantId: string) {
      if (!recordId(grantId)) return;
      await rpc.send(SUBJECTS.identity.oauthGrantRevoke, { grantId });
      await announceGrantsEnded(rpc, [grantId], logger);
    },
  };
}

/** OAuthServer.grantsEnded. */
async function announceGrantsEnded(rpc: RpcClient, grantIds: string[], logger: Logger): Promise<void> {
  if (grantIds.length === 0) return;
  try {
    await rpc.send(SUBJECTS.terminals.grantsEnded, { grantIds });
  } catch (err) {
    logger.warn({ err, grantIds }, 'could not remove the terminals of ended OAuth grants (their tokens stay refused)');
  }
}

function signingJwk(pem: string | undefined, logger: Logger): JWK {
  if (!pem) logger.warn('OAUTH_SIGNING_KEY is not set: OAuth ID tokens are signed with a key made for this process only');
  const key = pem ? createPrivateKey(pem) : generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const jwk = key.export({ format: 'jwk' }) as JWK;
  const kid = sha256(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n })).slice(0, 16);
  return { ...jwk, kid, use: 'sig', alg: 'RS256' };
}

function errorPage(out: { error: string; error_description?: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Authorization failed - Tinkerdesk</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f2937}code{background:#f3f4f6;padding:0 .25rem}</style></head>
<body><main><h1>The app's request could not be completed</h1>
<p><code>${escapeHtml(out.error)}</code>${out.error_description ? ` - ${escapeHtml(out.error_description)}` : ''}</p>
<p>Go back to the app and start again, or tell its maker. <a href="/">Tinkerdesk home</a></p></main></body></html>`;
}

/**
 * oidc-provider, loaded once the configuration is known to be good (a process refused at boot prints
 * one line only). At import it prints a notice about the Node release to the console; that goes to
 * the structured log instead of breaking its JSON lines.
 */
async function loadOidcProvider(logger: Logger): Promise<typeof import('oidc-provider')> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => logger.warn({ notice: args.map(String).join(' ') }, 'oidc-provider notice');
  try {
    return await import('oidc-provider');
  } finally {
    console.warn = warn;
  }
}

/**
 * Tinkerdesk as an OAuth 2.0 / OpenID Connect authorization server (oidc-provider, certified) at
 * PUBLIC_URL/v1/oauth2: the authorization code flow with PKCE, refresh tokens that rotate (a reused
 * one ends the grant), revocation, introspection, discovery and JWKS. Access tokens are opaque and
 * stored (so withdrawing a consent ends them at once), for the /v1 resource, with the API scopes the
 * user allowed. The consent page is the web app's (/oauth2/consent/{interaction}); the gateway's
 * /v1/oauth2/setup and /reject finish the interaction.
 */
export async function createOAuthServer(rpc: RpcClient, settings: OAuthSettings, logger: Logger): Promise<OAuthServer> {
  const { default: Provider, errors, interactionPolicy } = await loadOidcProvider(logger);
  const issuer = `${settings.publicUrl}${OAUTH_PATH}`;
  const resource = `${settings.publicUrl}/v1`;
  if (settings.cookieKeys.length === 0)
    logger.warn('OAUTH_COOKIE_KEYS is not set: OAuth cookies are signed with a key made for this process only');
  const cookieKeys = settings.cookieKeys.length > 0 ? settings.cookieKeys : [randomBytes(32).toString('hex')];

  const policy = interactionPolicy.base();
  // Every authorization is confirmed by whoever is signed in to Tinkerdesk now (a browser's earlier
  // OAuth session may belong to someone who has signed out since), unless it is resuming from that.
  policy
    .get('consent')
    ?.checks.add(
      new interactionPolicy.Check('tinkerdesk_confirm', 'the signed-in Tinkerdesk user confirms each authorization', (ctx) =>
        ctx.oidc.result?.consent ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );

  const cookie = { path: OAUTH_PATH, httpOnly: true, sameSite: 'lax' as const, signed: true };
  const configuration: Configuration = {
    adapter: (model: string) => natsAdapter(rpc, model, logger, (problem) => new errors.InvalidRequest(problem)),
    jwks: { keys: [signingJwk(settings.signingKey, logger)] },
    cookies: { keys: cookieKeys, short: cookie, long: cookie },
    pkce: { required: () => true },
    scopes: [...OAUTH_STANDARD_SCOPE_NAMES],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'zoneinfo'] },
    responseTypes: ['code'],
    extraClientMetadata: { properties: ['api_scope', 'developer_name', 'developer_contact'] },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'RS256',
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      // Only the app a token was issued to learns about it (RFC 7662 section 4: the server decides who
      // may introspect); any other answers active: false.
      introspection: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        // The /v1 token carries the standard scopes the user granted (openid, email, profile: userinfo
        // answers for them) beside the API scopes.
        getResourceServerInfo: (_ctx, indicator, client) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`the only resource is ${resource}`);
          const allowed = new Set([...String(client.scope ?? '').split(' '), ...String(client.metadata().api_scope ?? '').split(' ')]);
          const names: string[] = [...new Set<string>([...OAUTH_STANDARD_SCOPE_NAMES, ...OAUTH_API_SCOPE_NAMES])];
          return {
            scope: names.filter((s) => allowed.has(s)).join(' '),
            audience: resource,
            accessTokenTTL: settings.accessTokenTtlSeconds,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    formats: { bitsOfOpaqueRandomness: 384 },
    interactions: { url: (_ctx, interaction) => `${OAUTH_CONSENT_PATH}/${interaction.uid}`, policy },
    // Every app may refresh: a refresh token comes with each code (no offline_access needed), and rotates.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AuthorizationCode: settings.codeTtlSeconds,
      AccessToken: settings.accessTokenTtlSeconds,
      RefreshToken: settings.refreshTokenTtlSeconds,
      IdToken: 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: 365 * 24 * 3600,
    },
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
    findAccount: async (_ctx, sub) => {
      if (!/^[0-9a-f-]{36}$/i.test(sub)) return undefined;
      try {
        const profile = await rpc.send(SUBJECTS.identity.userMe, { userId: sub });
        return {
          accountId: sub,
          claims: () => ({ sub, email: profile.email, email_verified: profile.verified, name: profile.name, zoneinfo: profile.tz }),
        };
      } catch {
        return undefined;
      }
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = errorPage(out as { error: string; error_description?: string });
    },
  };

  const provider = new Provider(issuer, configuration);
  provider.proxy = settings.behindProxy;
  // A registered app's secret is stored as its SHA-256 (identity never keeps the secret itself).
  provider.Client.prototype.compareClientSecret = function compareClientSecret(this: { clientSecret?: string }, actual: string) {
    const stored = Buffer.from(this.clientSecret ?? '', 'utf8');
    const given = Buffer.from(sha256(actual), 'utf8');
    return stored.length === given.length && timingSafeEqual(stored, given);
  };
  provider.on('server_error', (_ctx, err) => logger.error({ err }, 'oauth server error'));
  const callback = provider.callback();
  return {
    provider,
    resource,
    issuer,
    grantsEnded: (grantIds) => announceGrantsEnded(rpc, grantIds, logger),
    handle: (req, res, next) => {
      if (USERINFO_ROUTE.test(req.url ?? '/') && req.method === 'OPTIONS') return userinfoPreflight(req, res);
      if (!PROVIDER_ROUTES.test(req.url ?? '/')) return next();
      void callback(req, res);
    },
  };
}
