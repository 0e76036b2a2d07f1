import { commonSchema, ConfigError, databaseSchema, env, redisSchema, type ConfigOf } from '@tinkerdesk/nest-common';
import { loadWalletCredentials } from './passes/wallet-credentials.js';

/** The environment of the terminals service; nothing else in it reads process.env. */
export const schema = {
  ...commonSchema,
  ...databaseSchema,
  ...redisSchema,
  HEALTH_PORT: env.port(0),
  /**
   * The VAPID key pair of Web Push (base64url, as `web-push generate-vapid-keys` prints them): the
   * public key is the browsers' applicationServerKey. `npm start` makes a pair on first run and keeps
   * it in data/vapid.json. Unset: terminals work without push (their inbox only).
   */
  VAPID_PUBLIC_KEY: env.optionalStr(),
  VAPID_PRIVATE_KEY: env.optionalStr(),
  /** Who the push services may contact about this sender (a mailto: or https: URL). */
  VAPID_SUBJECT: env.str('mailto:support@tinkerdesk.dev'),
  /** How long a push service keeps a message for a terminal that is offline (its TTL). */
  PUSH_TTL_SECONDS: env.int(24 * 3600, 0, 28 * 24 * 3600),
  /** Deadline of one delivery to a push service. */
  PUSH_TIMEOUT_MS: env.int(10_000, 500, 60_000),
  /** Tries of one delivery (with backoff) before it is given up. */
  PUSH_ATTEMPTS: env.int(5, 1, 20),
  /** First wait before a failed delivery is tried again; each later wait doubles. */
  PUSH_RETRY_DELAY_MS: env.int(30_000, 10, 3_600_000),
  /**
   * Push endpoints exempt from the inside-address check (and allowed over plain http): for tests only,
   * a push service on this machine (comma-separated host names).
   */
  PUSH_ALLOWED_HOSTS: env.str(''),
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
  /** Public address of the site: the URLs of pass images that Google Wallet fetches, and the origin of its save links. */
  PUBLIC_URL: env.url('http://localhost:8080', ['http:', 'https:']),
  /** Google Wallet: the issuer id (Google Pay & Wallet Console) and its service account's JSON key, as a file or inline. */
  GOOGLE_WALLET_ISSUER_ID: env.optionalStr(),
  GOOGLE_WALLET_SERVICE_ACCOUNT_FILE: env.optionalStr(),
  GOOGLE_WALLET_SERVICE_ACCOUNT: env.optionalStr(),
  /** Apple Wallet: the Pass Type ID, the team, the Pass Type ID certificate and key (PEM files) and Apple's WWDR certificate (PEM). */
  APPLE_PASS_TYPE_ID: env.optionalStr(),
  APPLE_TEAM_ID: env.optionalStr(),
  APPLE_PASS_CERT_FILE: env.optionalStr(),
  APPLE_PASS_KEY_FILE: env.optionalStr(),
  APPLE_PASS_KEY_PASSPHRASE: env.optionalStr(),
  APPLE_WWDR_CERT_FILE: env.optionalStr(),
  /** The organization Apple Wallet names on a pass. */
  APPLE_ORGANIZATION_NAME: env.str('Tinkerdesk'),
  /** How often pass images that no pass references are looked for (they go an hour after they were stored). */
  PASS_IMAGE_SWEEP_SECONDS: env.int(600, 1, 86_400),
};

export type TerminalsConfig = ConfigOf<typeof schema>;

/** Rules across variables, checked at boot. */
export function checkConfig(config: TerminalsConfig): void {
  if (Boolean(config.VAPID_PUBLIC_KEY) !== Boolean(config.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(
      config.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY',
      'must be set with its pair (both or neither)',
    );
  }
  if (config.VAPID_PUBLIC_KEY && !/^[A-Za-z0-9_-]{87}$/.test(config.VAPID_PUBLIC_KEY)) {
    throw new ConfigError('VAPID_PUBLIC_KEY', 'must be an uncompressed P-256 public key in base64url (87 characters)');
  }
  if (config.VAPID_PRIVATE_KEY && !/^[A-Za-z0-9_-]{43}$/.test(config.VAPID_PRIVATE_KEY)) {
    throw new ConfigError('VAPID_PRIVATE_KEY', 'must be a P-256 private key in base64url (43 characters)');
  }
  if (!/^(mailto:|https:\/\/)/.test(config.VAPID_SUBJECT)) {
    throw new ConfigError('VAPID_SUBJECT', 'must be a mailto: or https: URL');
  }
  // Wallet passes: key and certificate files are read and checked now, not at the first pass.
  loadWalletCredentials(config);
}
