import type { LimitRule } from '@tinkerdesk/nest-common';
import type { Request } from 'express';

/**
 * The limit of one route: per client address (one attacker spraying many targets) and per target
 * (one inbox or account flooded from many addresses). `target` reads the target from the request,
 * after authentication; undefined when the request names none (validation refuses it afterwards).
 */
export interface RouteLimit {
  /** Part of the Redis keys. */
  name: string;
  /** What is counted, for the error detail ("too many <what>; try again in 40 minutes"). */
  what: string;
  perAddress: LimitRule;
  perTarget: LimitRule;
  target: (req: Request & { session?: { userId: string } }) => string | undefined;
}

const HOUR = 3600;

/** The email of a JSON body, in the one spelling every letter case shares. */
export function bodyEmail(req: Request): string | undefined {
  const email: unknown = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.trim() !== '' ? email.trim().toLowerCase() : undefined;
}

function perHour(name: string, what: string, perAddress: number, perTarget: number, target: RouteLimit['target']): RouteLimit {
  return {
    name,
    what,
    perAddress: { points: perAddress, durationSeconds: HOUR },
    perTarget: { points: perTarget, durationSeconds: HOUR },
    target,
  };
}

/**
 * Every call that makes the platform send an email: calls per hour per client address, and per
 * target. RATE_LIMIT_FACTOR multiplies them (tests and load tests only).
 */
export const MAIL_LIMITS = {
  signUp: perHour('signup', 'sign-ups', 20, 3, bodyEmail),
  passwordReset: perHour('reset', 'password reset requests', 20, 3, bodyEmail),
  verification: perHour('verification', 'verification requests', 20, 3, (req) => req.session?.userId),
  contact: perHour('contact', 'contact questions', 10, 5, bodyEmail),
} satisfies Record<string, RouteLimit>;

/** Server-side fetches for the browser tools: per minute, per client address and per account. */
export const FETCH_LIMIT: RouteLimit = {
  name: 'fetch',
  what: 'fetches',
  perAddress: { points: 120, durationSeconds: 60 },
  perTarget: { points: 60, durationSeconds: 60 },
  target: (req) => req.session?.userId,
};

/**
 * Selling: orders placed per client address and per service (a visitor cannot fill a shop with
 * junk orders), and messages on orders (each one emails the other side) per address and per account.
 */
export const COMMERCE_LIMITS = {
  order: perHour('order', 'orders', 60, 5000, (req) => (typeof req.params.sid === 'string' ? req.params.sid : undefined)),
  reply: perHour('reply', 'messages on orders', 120, 60, (req) => req.session?.userId),
  request: perHour('request', 'payment requests', 60, 60, (req) => req.session?.userId),
  plan: perHour('plan', 'plans', 60, 30, (req) => req.session?.userId),
  cardSetup: perHour('card-setup', 'card pages', 60, 30, (req) => req.session?.userId),
  productImage: perHour('product-image', 'product image uploads', 600, 300, (req) => req.session?.userId),
} satisfies Record<string, RouteLimit>;

/** Terminals: registrations per account (each holds a token), shares per address and per account (each may push). */
export const TERMINAL_LIMITS = {
  register: perHour('terminal', 'terminal registrations', 60, 30, (req) => req.session?.userId),
  share: perHour('share', 'shares', 1200, 600, (req) => (req as { terminalCaller?: { userId: string } }).terminalCaller?.userId),
} satisfies Record<string, RouteLimit>;

/** OAuth app registrations per account (a burst is refused before identity counts them). */
export const OAUTH_LIMITS = {
  register: perHour('oauth-app', 'app registrations', 30, 15, (req) => req.session?.userId),
} satisfies Record<string, RouteLimit>;

/** Wallet passes: saves per address and account (each may store two images), signed Apple passes (CPU: resizing, signing). */
export const PASS_LIMITS = {
  save: perHour('pass', 'pass saves', 1200, 600, (req) => req.session?.userId),
  apple: perHour('pass-apple', 'Apple Wallet passes', 1200, 600, (req) => req.session?.userId),
} satisfies Record<string, RouteLimit>;
