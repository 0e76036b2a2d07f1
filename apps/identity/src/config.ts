import { OIDC_PROVIDER_NAMES, OIDC_PROVIDERS, type OidcProviderId } from '@tinkerdesk/contracts';
import { commonSchema, ConfigError, databaseSchema, env, redisSchema, type ConfigOf, type Field } from '@tinkerdesk/nest-common';
import { isLoopbackIssuer } from './social/social-rules.js';

/** An http(s) URL, or unset. */
function optionalHttpUrl(): Field<string | undefined> {
  const url = env.url(undefined, ['http:', 'https:']);
  return { parse: (variable, raw) => (raw === undefined || raw.trim() === '' ? undefined : url.parse(variable, raw)) };
}

/** The environment of the identity service; nothing else in it reads process.env. */
export const schema = {
  ...commonSchema,
  ...databaseSchema,
  /** Redis: the mail queue (BullMQ) and the sign-in limit counters. */
  ...redisSchema,
  HEALTH_PORT: env.port(0),
  /** smtp:// or smtps:// URL; when unset, messages are written as .eml files under DATA_DIR/mail. */
  SMTP_URL: env.optionalStr(),
  MAIL_FROM: env.str('Tinkerdesk <no-reply@tinkerdesk.dev>'),
  DATA_DIR: env.str('data'),
  /** First wait before a failed mail is tried again; each later wait doubles (mail/mail-queue.ts). */
  MAIL_RETRY_DELAY_MS: env.int(10_000, 10, 3_600_000),
  /** How long a mail's idempotency key (identity.mail.send `key`) keeps the same mail from being sent again (mail/mail-keys.repository.ts). */
  MAIL_KEY_RETENTION_DAYS: env.int(7, 1, 365),
  PUBLIC_URL: env.url('http://localhost:8080', ['http:', 'https:']),
  /**
   * How often the outbox relay looks for committed events not published yet (a safety net: it is
   * woken right after each commit that recorded events).
   */
  OUTBOX_POLL_MS: env.int(1000, 50, 60_000),
  /**
   * Retention (docs/operations.md, "What the platform deletes"): published outbox events and
   * processed-event rows older than this many days are deleted. At least 1: an event is redelivered
   * within minutes at most (ack wait 30 s, retries at most 30 s apart, the stream's 2-minute duplicate window).
   */
  OUTBOX_RETENTION_DAYS: env.int(7, 1, 3650),
  /** How often each replica tries the retention sweep (one replica sweeps at a time); 0: never. */
  RETENTION_SWEEP_SECONDS: env.int(600, 0, 86_400),
  /** Sessions ended or expired more than this many days ago are deleted. */
  SESSION_RETENTION_DAYS: env.int(7, 0, 3650),
  /** Emailed links (verify, reset) used or expired more than this many days ago are deleted. */
  ACTION_TOKEN_RETENTION_DAYS: env.int(7, 0, 3650),
  /** Where contact questions are emailed. */
  SUPPORT_EMAIL: env.str('support@tinkerdesk.dev'),
  /** Social sign-in (OpenID Connect): a provider is on when its issuer and client id are set. */
  OIDC_GOOGLE_ISSUER: optionalHttpUrl(),
  OIDC_GOOGLE_CLIENT_ID: env.optionalStr(),
  OIDC_GOOGLE_CLIENT_SECRET: env.optionalStr(),
  OIDC_GITHUB_ISSUER: optionalHttpUrl(),
  OIDC_GITHUB_CLIENT_ID: env.optionalStr(),
  OIDC_GITHUB_CLIENT_SECRET: env.optionalStr(),
  OIDC_FACEBOOK_ISSUER: optionalHttpUrl(),
  OIDC_FACEBOOK_CLIENT_ID: env.optionalStr(),
  OIDC_FACEBOOK_CLIENT_SECRET: env.optionalStr(),
  /** Deadline of each HTTP request to a provider (discovery, token, keys, userinfo). */
  OIDC_TIMEOUT_MS: env.int(5000, 100, 8000),
  /**
   * Credential stuffing: distinct accounts one client address may fail to sign in to within an hour
   * before it is closed to browsers without a device cookie (test platforms, whose every client is
   * 127.0.0.1, raise it).
   */
  SIGN_IN_ADDRESS_ACCOUNTS: env.int(20, 1, 1_000_000),
};

export type IdentityConfig = ConfigOf<typeof schema>;

export interface OidcProviderConfig {
  id: OidcProviderId;
  name: string;
  issuer: string;
  clientId: string;
  /** Unset: a public client (PKCE only, no client authentication). */
  clientSecret: string | undefined;
}

/** The variables of each provider: issuer, client id, client secret. */
const OIDC_VARIABLES = {
  google: ['OIDC_GOOGLE_ISSUER', 'OIDC_GOOGLE_CLIENT_ID', 'OIDC_GOOGLE_CLIENT_SECRET'],
  github: ['OIDC_GITHUB_ISSUER', 'OIDC_GITHUB_CLIENT_ID', 'OIDC_GITHUB_CLIENT_SECRET'],
  facebook: ['OIDC_FACEBOOK_ISSUER', 'OIDC_FACEBOOK_CLIENT_ID', 'OIDC_FACEBOOK_CLIENT_SECRET'],
} as const satisfies Record<OidcProviderId, readonly [keyof IdentityConfig, keyof IdentityConfig, keyof IdentityConfig]>;

/**
 * The configured social sign-in providers, in the order the sign-in page lists them. A half
 * configured provider (issuer without client id, or the other way round, or a secret alone) is a
 * configuration error rather than a provider that silently stays off; so is a plain http issuer
 * anywhere but on this machine.
 */
export function oidcProviders(config: IdentityConfig): OidcProviderConfig[] {
  const out: OidcProviderConfig[] = [];
  for (const id of OIDC_PROVIDERS) {
    const [issuerVar, clientIdVar, secretVar] = OIDC_VARIABLES[id];
    const issuer = config[issuerVar];
    const clientId = config[clientIdVar];
    const clientSecret = config[secretVar];
    if (issuer && !clientId) throw new ConfigError(clientIdVar, `is required when ${issuerVar} is set`);
    if (!issuer && (clientId || clientSecret))
      throw new ConfigError(issuerVar, `is required when ${clientId ? clientIdVar : secretVar} is set`);
    if (issuer?.startsWith('http:') && !isLoopbackIssuer(issuer)) {
      throw new ConfigError(issuerVar, `must use https: (plain http only for localhost or 127.0.0.1) (got "${issuer}")`);
    }
    if (issuer && clientId) out.push({ id, name: OIDC_PROVIDER_NAMES[id], issuer, clientId, clientSecret });
  }
  return out;
}

/** Rules across variables, checked at boot. */
export function checkConfig(config: IdentityConfig): void {
  oidcProviders(config);
}
