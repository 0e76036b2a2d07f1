import { createPrivateKey } from 'node:crypto';
import { isIP } from 'node:net';
import {
  commonSchema,
  ConfigError,
  env,
  fileStoreSchema,
  redisSchema,
  savedFilesSchema,
  type ConfigOf,
  type Field,
} from '@tinkerdesk/nest-common';

/** Express's names for address ranges, allowed in TRUST_PROXY next to addresses and CIDR blocks. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGES.includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: the reverse proxies whose X-Forwarded-For the gateway believes, comma-separated
 * addresses or CIDR blocks (or Express's loopback, linklocal, uniquelocal). Unset: none, and the
 * client address is the TCP peer.
 */
export function trustProxyField(): Field<string[]> {
  return {
    parse(variable, raw) {
      const entries = (raw ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean);
      const bad = entries.find((e) => !isProxyEntry(e));
      if (bad !== undefined) {
        throw new ConfigError(
          variable,
          `must list IP addresses or CIDR blocks (or ${PROXY_RANGES.join(', ')}), comma-separated (got "${bad}")`,
        );
      }
      return entries;
    },
  };
}

/** An optional secret of at least `min` characters. */
function optionalSecret(min: number): Field<string | undefined> {
  return {
    parse(variable, raw) {
      const value = raw?.trim();
      if (!value) return undefined;
      if (value.length < min) throw new ConfigError(variable, `must be at least ${min} characters long`);
      return value;
    },
  };
}

/** An optional PEM private key (RSA), checked at boot. */
function pemPrivateKey(): Field<string | undefined> {
  return {
    parse(variable, raw) {
      const value = raw?.trim();
      if (!value) return undefined;
      try {
        const key = createPrivateKey(value.replace(/\\n/g, '\n'));
        if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
        return key.export({ format: 'pem', type: 'pkcs8' }).toString();
      } catch {
        throw new ConfigError(variable, 'must be the PEM of an RSA private key');
      }
    },
  };
}

/** Comma-separated secrets, each at least `min` characters long (none: an empty list). */
function secretList(min: number): Field<string[]> {
  return {
    parse(variable, raw) {
      const keys = (raw ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean);
      if (keys.some((k) => k.length < min)) throw new ConfigError(variable, `each secret must be at least ${min} characters long`);
      return keys;
    },
  };
}

/** The gateway's environment; nothing else in the gateway reads process.env. */
export const schema = {
  ...commonSchema,
  ...redisSchema,
  ...fileStoreSchema,
  ...savedFilesSchema,
  PORT: env.port(8080),
  HOST: env.str('0.0.0.0'),
  BODY_LIMIT: env.int(1_048_576, 1024, 64 * 1_048_576),
  UPLOAD_LIMIT: env.int(52_428_800, 1024, 1024 * 1_048_576),
  RPC_TIMEOUT_MS: env.int(1500, 100, 120_000),
  /** How long a checked session token is remembered (identity's revocations reach every replica at once); 0: ask every time. */
  SESSION_CACHE_TTL_MS: env.int(30_000, 0, 3_600_000),
  /** How long `me` answers from the gateway (identity announces every change to every replica); 0: ask every time. */
  PROFILE_CACHE_TTL_MS: env.int(30_000, 0, 3_600_000),
  /** Live event streams (GET /v1/events/stream) one account may hold open on one gateway replica; past it, 429. */
  LIVE_STREAMS_PER_USER: env.int(5, 1, 100),
  /** How often an open live stream sends a heartbeat comment line (keeps proxies from closing it). */
  LIVE_HEARTBEAT_MS: env.int(15_000, 100, 120_000),
  /** Bytes a live stream's reader may leave unread before it is dropped (it reconnects with Last-Event-ID). */
  LIVE_BUFFER_BYTES: env.int(262_144, 1024, 16 * 1_048_576),
  /** How often the session behind an open live stream is checked again (an expired session ends the stream). */
  LIVE_RECHECK_MS: env.int(60_000, 200, 3_600_000),
  CORS_ORIGINS: env.str('*'),
  WEB_DIST: env.str('apps/web/dist'),
  PUBLIC_URL: env.url('http://localhost:8080', ['http:', 'https:']),
  TRUST_PROXY: trustProxyField(),
  /** Bearer token that shows operators the detail of GET /v1/health; unset: nobody sees it. */
  HEALTH_TOKEN: optionalSecret(16),
  /** Host names that POST /v1/users/{guid}/fetch may reach even inside the network (comma-separated); none by default. */
  FETCH_ALLOWED_HOSTS: env.str(''),
  /** Largest content POST /v1/users/{guid}/fetch hands back, in bytes (10 MiB). */
  FETCH_MAX_BYTES: env.int(10 * 1_048_576, 1024, 64 * 1_048_576),
  /** Deadline of one fetch, redirects included. */
  FETCH_TIMEOUT_MS: env.int(15_000, 500, 120_000),
  /** Fetches one gateway runs at once; past it, 429 RATE_LIMITED (bounds the memory they hold). */
  FETCH_CONCURRENCY: env.int(8, 1, 256),
  /**
   * OAuth (integrators' apps): the PEM of the RSA private key that signs ID tokens (its public half is
   * in /v1/oauth2/jwks). `npm start` makes one on the first run and keeps it in <DATA_DIR>/oauth.json.
   * Unset: a key made at boot, so ID tokens of another replica or an earlier run do not verify.
   */
  OAUTH_SIGNING_KEY: pemPrivateKey(),
  /** Secrets (comma-separated, 32+ characters) that sign OAuth's cookies; the first signs, all verify (rotation). Unset: one made at boot. */
  OAUTH_COOKIE_KEYS: secretList(32),
  /** How long an authorization code may be exchanged. */
  OAUTH_CODE_TTL_SECONDS: env.int(60, 1, 600),
  /** How long an OAuth access token works. */
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: env.int(3600, 10, 86_400),
  /** How long an OAuth refresh token works (each use replaces it). */
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: env.int(30 * 86_400, 60, 365 * 86_400),
  /** Multiplies the limits of the mail-sending routes (http/rate-limits.ts); 1 in production. */
  RATE_LIMIT_FACTOR: env.int(1, 1, 100_000),
};

export type GatewayConfig = ConfigOf<typeof schema>;
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
