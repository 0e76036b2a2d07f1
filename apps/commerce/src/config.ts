import { commonSchema, ConfigError, databaseSchema, env, redisSchema, type ConfigOf, type Field } from '@tinkerdesk/nest-common';

/** An http(s) URL, or unset. */
function optionalUrl(): Field<string | undefined> {
  const url = env.url(undefined, ['http:', 'https:']);
  return { parse: (variable, raw) => (raw === undefined || raw.trim() === '' ? undefined : url.parse(variable, raw)) };
}

/** The environment of the commerce service; nothing else in it reads process.env. */
export const schema = {
  ...commonSchema,
  ...databaseSchema,
  ...redisSchema,
  HEALTH_PORT: env.port(0),
  /** The site's public origin: links in emails and the addresses payment providers send the browser back to. */
  PUBLIC_URL: env.url('http://localhost:8080', ['http:', 'https:']),
  /**
   * Stripe's secret key (sk_live_... or sk_test_...). When unset, services may still choose `stripe`
   * but payments through it are refused with a clear error; the built-in sandbox sells with nothing set.
   */
  STRIPE_SECRET_KEY: env.optionalStr(),
  /** The signing secret of the Stripe webhook endpoint (whsec_...): /v1/webhooks/stripe refuses events without it. */
  STRIPE_WEBHOOK_SECRET: env.optionalStr(),
  /** Another Stripe API origin (tests: a loopback server that speaks Stripe's API). Default https://api.stripe.com. */
  STRIPE_API_URL: optionalUrl(),
  /** Deadline of each call to Stripe. */
  STRIPE_TIMEOUT_MS: env.int(10_000, 500, 60_000),
  /** How long a sandbox pay session stays open. */
  SANDBOX_SESSION_MINUTES: env.int(60, 1, 24 * 60),
  /** How often the plan scheduler looks for due charges that no queued job covers (a safety net; charges are queued for their time). */
  PLAN_SWEEP_SECONDS: env.int(60, 5, 3600),
  /**
   * How often each replica finishes the automatic refunds of late payments (a payment that came for
   * an order cancelled at the same moment) that the provider refused or a stopped replica left.
   */
  LATE_REFUND_RETRY_SECONDS: env.int(60, 1, 3600),
  /**
   * How often the outbox relay looks for committed events that are not published yet (a safety net:
   * it is woken right after each commit that recorded events).
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
  /** Plan charges one commerce replica runs at once. */
  PLAN_CONCURRENCY: env.int(4, 1, 64),
};

export type CommerceConfig = ConfigOf<typeof schema>;

/** Rules across variables, checked at boot. */
export function checkConfig(config: CommerceConfig): void {
  if (config.STRIPE_SECRET_KEY && !/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/.test(config.STRIPE_SECRET_KEY)) {
    throw new ConfigError('STRIPE_SECRET_KEY', 'must be a Stripe secret key (sk_test_..., sk_live_... or a restricted rk_ key)');
  }
  if (config.STRIPE_WEBHOOK_SECRET && !config.STRIPE_WEBHOOK_SECRET.startsWith('whsec_')) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'must be a webhook signing secret (whsec_...)');
  }
  if (config.STRIPE_API_URL?.startsWith('http:') && !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/?$/.test(config.STRIPE_API_URL)) {
    throw new ConfigError('STRIPE_API_URL', 'may use plain http only on this machine (127.0.0.1 or localhost)');
  }
}
