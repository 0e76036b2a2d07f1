import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Account, AdapterFactory, AdapterPayload, Configuration, JWK } from 'oidc-provider';

export interface OidcTestClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface OidcProviderOptions {
  /** 0 or unset: a free port. */
  port?: number;
  /** The address it listens on and names in its issuer (default 127.0.0.1). */
  host?: string;
  clients: OidcTestClient[];
  /**
   * true (default, like Google): the ID token carries email, email_verified and name. false: only
   * the userinfo endpoint does, as the OpenID Connect core rules say when an access token is issued.
   */
  claimsInIdToken?: boolean;
}

export interface RunningOidcProvider {
  issuer: string;
  close(): Promise<void>;
}

interface TestAccount {
  email: string;
  name: string;
  emailVerified: boolean;
}

/** The subject of an email address: the same email always signs in as the same account. */
export function oidcSubjectOf(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('hex').slice(0, 32);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function loginPage(uid: string, clientId: string, error?: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign in - test OpenID provider</title></head>
<body>
<main>
<h1>Sign in to the test OpenID provider</h1>
<p>Signing in to <strong>${escapeHtml(clientId)}</strong>. Any email address works; nothing is checked.</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<p><label for="email">Email</label> <input id="email" name="email" type="email" required autocomplete="email"></p>
<p><label for="name">Name</label> <input id="name" name="name" type="text" autocomplete="name"></p>
<p><input id="email_verified" name="email_verified" type="checkbox" value="true" checked> <label for="email_verified">Email verified</label></p>
<p><button type="submit">Sign in</button></p>
</form>
</main>
</body>
</html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += (chunk as Buffer).toString('utf8');
    if (body.length > 16_384) throw new Error('the form is too large');
  }
  return new URLSearchParams(body);
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
}

/** The artifacts that revoking a grant (sign-out, a new person signing in) takes away. */
const GRANT_BOUND = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

/** oidc-provider's storage, in memory (the provider lives as long as the test): one map, entries expire. */
function memoryStorage(): AdapterFactory {
  const entries = new Map<string, { kind: string; payload: AdapterPayload; expires: number }>();
  const live = (key: string): AdapterPayload | undefined => {
    const entry = entries.get(key);
    if (entry && entry.expires <= Date.now()) entries.delete(key);
    return entry && entry.expires > Date.now() ? entry.payload : undefined;
  };
  const findBy = (kind: string, match: (payload: AdapterPayload) => boolean): AdapterPayload | undefined => {
    for (const [key, entry] of entries) if (entry.kind === kind && match(entry.payload)) return live(key);
    return undefined;
  };
  return (kind) => ({
    upsert: async (id, payload, expiresIn) =>
      void entries.set(`${kind}:${id}`, {
        kind,
        payload: structuredClone(payload),
        expires: expiresIn ? Date.now() + expiresIn * 1000 : Infinity,
      }),
    find: async (id) => structuredClone(live(`${kind}:${id}`)),
    findByUid: async (uid) => structuredClone(findBy(kind, (p) => p.uid === uid)),
    findByUserCode: async (userCode) => structuredClone(findBy(kind, (p) => p.userCode === userCode)),
    consume: async (id) => {
      const payload = live(`${kind}:${id}`);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    },
    destroy: async (id) => void entries.delete(`${kind}:${id}`),
    revokeByGrantId: async (grantId) => {
      for (const [key, entry] of entries) if (GRANT_BOUND.has(entry.kind) && entry.payload.grantId === grantId) entries.delete(key);
    },
  });
}

function listen(server: ReturnType<typeof createServer>, port: number, host: string): Promise<number> {
  return new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen((server.address() as AddressInfo).port));
  });
}

/**
 * A real OpenID Connect provider on loopback for tests (panva's oidc-provider): discovery, JWKS,
 * authorization and token endpoints, userinfo, PKCE required. Its login page asks for an email, a
 * name and whether the email is verified, then signs in and grants openid, email and profile
 * without a consent screen. It asks again at every sign-in, so one browser can sign in as
 * different people. A browser (Playwright) or plain fetch with a cookie jar can drive it.
 */
export async function startOidcProvider(options: OidcProviderOptions): Promise<RunningOidcProvider> {
  // Loaded here, not with the rest of @tinkerdesk/testing: only the tests that use it pay for it.
  const { default: Provider, interactionPolicy } = await import('oidc-provider');
  const host = options.host ?? '127.0.0.1';
  const accounts = new Map<string, TestAccount>();
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  const port = await listen(server, options.port ?? 0, host);
  const issuer = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const policy = interactionPolicy.base();
  policy
    .get('login')
    ?.checks.add(
      new interactionPolicy.Check('every_time', 'the test provider asks who signs in every time', (ctx) =>
        ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) as JWK;

  const configuration: Configuration = {
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      response_types: ['code'],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [{ ...signingKey, use: 'sig', alg: 'RS256' }] },
    adapter: memoryStorage(),
    cookies: { keys: [randomBytes(32).toString('hex')] },
    ttl: { AuthorizationCode: 60, Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: options.claimsInIdToken === false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}`, policy },
    findAccount: (_ctx, sub): Account | undefined => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, email: account.email, email_verified: account.emailVerified, name: account.name }),
      };
    },
  };
  const provider = new Provider(issuer, configuration);

  /** Signs the person in and grants the requested OpenID scopes in one step (no consent screen). */
  async function finish(req: IncomingMessage, res: ServerResponse, accountId: string): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    const grant = details.grantId
      ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId, clientId: String(details.params.client_id) }))
      : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope('openid email profile');
    grant.addOIDCClaims(['email', 'email_verified', 'name']);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, submitted: boolean): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return send(res, 400, '<p>This sign-in page belongs to another sign-in; start again.</p>');
    const clientId = String(details.params.client_id);
    if (!submitted) {
      if (details.prompt.name === 'consent' && details.session?.accountId) return finish(req, res, details.session.accountId);
      return send(res, 200, loginPage(uid, clientId));
    }
    const form = await readForm(req);
    const email = (form.get('email') ?? '').trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) return send(res, 400, loginPage(uid, clientId, 'Type an email address.'));
    const accountId = oidcSubjectOf(email);
    accounts.set(accountId, { email, name: (form.get('name') ?? '').trim(), emailVerified: form.get('email_verified') !== null });
    return finish(req, res, accountId);
  }

  const callback = provider.callback();
  handle = (req, res) => {
    const route = /^\/interaction\/([A-Za-z0-9_-]+)(\/login)?$/.exec(new URL(req.url ?? '/', issuer).pathname);
    if (!route) return void callback(req, res);
    const submitted = route[2] !== undefined;
    if (submitted !== (req.method === 'POST')) return send(res, 405, '<p>Method not allowed</p>');
    interaction(req, res, route[1] ?? '', submitted).catch((error: unknown) => {
      if (!res.headersSent) send(res, 400, `<p>${escapeHtml(error instanceof Error ? error.message : String(error))}</p>`);
    });
  };

  return {
    issuer,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}

export interface OidcTestPerson {
  email: string;
  name?: string;
  /** default true, like the checkbox of the login page */
  emailVerified?: boolean;
}

/** Keeps the cookies of one site across requests, like a browser (name=value; expired ones dropped). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=.*1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * What a browser does with the test provider, with plain fetch: opens the authorization URL, fills
 * in the login page and follows the redirects (keeping cookies) until the provider sends the
 * browser away. Answers that last URL: the client's redirect_uri with code, state and iss.
 */
export async function signInAtOidcProvider(authorizationUrl: string, person: OidcTestPerson): Promise<URL> {
  const jar = new CookieJar();
  const origin = new URL(authorizationUrl).origin;
  let url = new URL(authorizationUrl);
  let form: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { body: form.toString() } : {}),
    });
    jar.store(res);
    form = undefined;
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      url = new URL(location, url);
      if (url.origin !== origin) return url;
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action)
      throw new Error(`the test provider answered ${res.status} at ${url.pathname}: ${html.slice(0, 500)}`);
    url = new URL(action, url);
    form = new URLSearchParams({ email: person.email, name: person.name ?? '' });
    if (person.emailVerified !== false) form.set('email_verified', 'true');
  }
  throw new Error('the test provider redirected too many times');
}
