import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback server that speaks the part of Stripe's HTTP API the payment adapter uses (connected
 * accounts, Checkout Sessions, refunds, idempotency keys; for saved cards: Customers, Checkout in setup
 * mode with its SetupIntent and PaymentMethod, detaching, and off-session destination charges through
 * PaymentIntents), serves a hosted checkout page with Stripe's test cards, and delivers webhooks signed
 * with Stripe's scheme (HMAC-SHA256 of "t.payload"), written here from Stripe's documentation,
 * independent of the SDK the adapter uses. The tests and the end-to-end run point the `stripe` SDK at
 * it (host, port, protocol). `expand[]` is honoured on every answer.
 *
 * Test cards: 4242424242424242 pays (and saves); 4000002500003155 asks for 3-D Secure once (a saved one
 * is then charged off-session without it); 4000002760003184 asks for 3-D Secure when saved, and every
 * off-session charge of it fails with authentication_required; 4000000000000341 saves, but every charge
 * of it is declined; 4000000000000002 is declined (paying or saving).
 */

export interface LoopbackStripeAccount {
  id: string;
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
}

export interface LoopbackStripeOptions {
  secretKey?: string;
  webhookSecret?: string;
  webhookUrl?: string;
  accounts?: LoopbackStripeAccount[];
  port?: number;
}

export type CheckoutSessionObject = Record<string, unknown> & {
  id: string;
  mode: 'payment' | 'setup';
  status: 'open' | 'complete' | 'expired';
  /** Setup mode: always no_payment_required. */
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  payment_intent: string | null;
  /** Setup mode: the SetupIntent, from the first card tried on the page. */
  setup_intent: string | null;
  customer: string | null;
  /** Null in setup mode. */
  amount_total: number | null;
  currency: string | null;
  success_url: string;
  cancel_url: string | null;
  client_reference_id: string | null;
};

/** A saved card (Stripe's PaymentMethod of type card). */
export type PaymentMethodObject = Record<string, unknown> & {
  id: string;
  object: 'payment_method';
  type: 'card';
  customer: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number } & Record<string, unknown>;
};

/** A PaymentIntent made through the API (an off-session charge of a saved card). */
export type PaymentIntentObject = Record<string, unknown> & {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  customer: string | null;
  payment_method: string | null;
  status: 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'succeeded';
  transfer_data: { destination: string } | null;
  metadata: Record<string, string>;
};

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  livemode: false;
  type: string;
  account?: string;
  data: { object: Record<string, unknown> };
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
}

export type PayOutcome = 'paid' | 'declined' | 'requires_action' | 'authentication_failed' | 'invalid';
export type SaveCardOutcome = 'saved' | 'declined' | 'requires_action' | 'authentication_failed' | 'invalid';

export interface LoopbackStripe {
  url: string;
  host: string;
  port: number;
  secretKey: string;
  webhookSecret: string;
  setWebhookUrl(url: string | undefined): void;
  addAccount(account: LoopbackStripeAccount): void;
  session(id: string): CheckoutSessionObject | undefined;
  /** Charges made for a session; or in all: those of every session and the off-session ones that succeeded. */
  charges(sessionId?: string): number;
  customer(id: string): Record<string, unknown> | undefined;
  paymentMethod(id: string): PaymentMethodObject | undefined;
  /** PaymentIntents made through the API (off-session charges), oldest first, declined ones too; of one customer when given. */
  paymentIntents(customer?: string): PaymentIntentObject[];
  deliveries: Array<{ event: StripeEvent; status: number; body: string }>;
  /**
   * Holds every webhook from now on (as Stripe's delivery delay): deliveries wait until
   * releaseWebhooks, which sends them in order and answers their statuses.
   */
  holdWebhooks(): void;
  releaseWebhooks(): Promise<number[]>;
  /**
   * Money moved by the Checkout Sessions of an order (client_reference_id), on Stripe's own records:
   * cents charged and cents refunded.
   */
  money(orderId: string): { charged: number; refunded: number };
  /** Pays a session with a test card as the hosted page would (`authenticate` answers a 3-D Secure step). */
  pay(sessionId: string, card: string, options?: { authenticate?: boolean }): Promise<PayOutcome>;
  /**
   * Saves a test card on a setup-mode session as the hosted page would (`authenticate` answers a 3-D
   * Secure step; the expiry defaults to December, three years on).
   */
  saveCard(
    sessionId: string,
    card: string,
    options?: { authenticate?: boolean; expMonth?: number; expYear?: number },
  ): Promise<SaveCardOutcome>;
  signedEvent(type: string, object: unknown, account?: string): { payload: string; header: string; event: StripeEvent };
  deliver(event: StripeEvent): Promise<number>;
  close(): Promise<void>;
}

const API_VERSION = '2026-10-28.endive';
export const DECLINED_MESSAGE = 'Your card was declined.';
export const AUTHENTICATION_MESSAGE =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';
export const AUTHENTICATION_REQUIRED_MESSAGE = 'Your card was declined. This transaction requires authentication.';
const DETACHED_MESSAGE =
  'The provided PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.';

/** The test cards this loopback knows, by number. */
const CARDS = {
  visa: '4242424242424242',
  threeDSecure: '4000002500003155',
  alwaysAuthenticate: '4000002760003184',
  chargeDeclined: '4000000000000341',
  declined: '4000000000000002',
} as const;

const random = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;

/** Stripe's form encoding (`a[b][0][c]=v`) into nested objects and arrays. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = rawKey.split(/[[\]]+/).filter((p) => p !== '');
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = /^\d+$/.test(path[i + 1] ?? '');
      const container = node as Record<string, unknown>;
      if (last) container[part] = value;
      else {
        container[part] ??= nextIsIndex ? [] : {};
        node = container[part] as Record<string, unknown>;
      }
    });
  }
  return root;
}

/** Stripe's webhook signature header for a payload. */
export function stripeSignature(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')}`;
}

class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: {
      type: string;
      message: string;
      code?: string;
      param?: string;
      decline_code?: string;
      charge?: string;
      payment_intent?: unknown;
      payment_method?: unknown;
    },
  ) {
    super(body.message);
  }
}

interface SessionEntry {
  /** Undefined: the platform's own (setup mode only). */
  account: string | undefined;
  object: CheckoutSessionObject;
  charges: number;
  pendingAction: boolean;
  error: string | null;
  /** Setup mode: the card waiting for its 3-D Secure step. */
  pendingCard: { digits: string; expMonth: number; expYear: number } | null;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

export async function startLoopbackStripe(options: LoopbackStripeOptions = {}): Promise<LoopbackStripe> {
  const secretKey = options.secretKey ?? 'sk_test_loopback';
  const webhookSecret = options.webhookSecret ?? 'whsec_loopback';
  let webhookUrl = options.webhookUrl;
  const accounts = new Map((options.accounts ?? []).map((a) => [a.id, a]));
  const sessions = new Map<string, SessionEntry>();
  /** Charges that can be refunded: those of sessions and the off-session ones that succeeded. */
  const paymentIntents = new Map<string, { sessionId: string | null; account: string | undefined; amount: number; refunded: number }>();
  // Objects of an account (undefined: the platform), as Stripe keeps them apart.
  const customers = new Map<
    string,
    { account: string | undefined; object: Record<string, unknown> & { id: string; email: string | null } }
  >();
  const paymentMethods = new Map<string, { account: string | undefined; object: PaymentMethodObject; digits: string; detached: boolean }>();
  const setupIntents = new Map<string, { account: string | undefined; object: Record<string, unknown> & { id: string; status: string } }>();
  const apiIntents = new Map<string, { account: string | undefined; object: PaymentIntentObject }>();
  const idempotency = new Map<string, { fingerprint: string; status: number; body: string } | Promise<void>>();
  const deliveries: LoopbackStripe['deliveries'] = [];
  let base = '';

  const eventFor = (type: string, object: unknown, account?: string): StripeEvent => ({
    id: random('evt'),
    object: 'event',
    api_version: API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type,
    ...(account ? { account } : {}),
    data: { object: object as Record<string, unknown> },
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  });

  let holding: Array<() => void> | null = null;
  const deliver = async (event: StripeEvent): Promise<number> => {
    if (holding) await new Promise<void>((resolve) => holding?.push(resolve));
    if (!webhookUrl) return 0;
    const payload = JSON.stringify(event, null, 2);
    try {
      const res = await fetch(webhookUrl, {
        method: 'POST',
        body: payload,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': stripeSignature(payload, webhookSecret),
          'user-agent': 'Stripe/1.0',
        },
      });
      const body = await res.text();
      deliveries.push({ event, status: res.status, body });
      return res.status;
    } catch {
      deliveries.push({ event, status: 0, body: '' });
      return 0;
    }
  };

  const connected = (req: IncomingMessage): string | undefined => {
    const account = req.headers['stripe-account'];
    if (account === undefined) return undefined;
    if (typeof account !== 'string' || !accounts.has(account)) {
      throw new StripeFailure(403, {
        type: 'invalid_request_error',
        message: `The provided key '${secretKey.slice(0, 12)}...' does not have access to account '${String(account)}' (or that account does not exist). Application access may have been revoked.`,
      });
    }
    return account;
  };

  const missing = (what: string, id: string, param = 'id') =>
    new StripeFailure(404, { type: 'invalid_request_error', code: 'resource_missing', param, message: `No such ${what}: '${id}'` });

  const unknownParameter = (form: Record<string, unknown>, name: string) => {
    if (form[name] !== undefined)
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        code: 'parameter_unknown',
        param: name,
        message: `Received unknown parameter: ${name}`,
      });
  };

  const customerOn = (account: string | undefined, id: string, param = 'id') => {
    const found = customers.get(id);
    if (!found || found.account !== account) throw missing('customer', id, param);
    return found;
  };

  const checkSuccessUrl = (form: Record<string, unknown>): string => {
    if (typeof form.success_url !== 'string' || !/^https?:\/\//.test(form.success_url)) {
      throw new StripeFailure(400, { type: 'invalid_request_error', param: 'success_url', message: 'Not a valid URL' });
    }
    return form.success_url;
  };

  /** Checkout in setup mode: a page that saves a card (to the customer, when one is given) and charges nothing. */
  const createSetupSession = (account: string | undefined, form: Record<string, unknown>): CheckoutSessionObject => {
    if (form.line_items !== undefined)
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        param: 'line_items',
        message: 'You cannot pass `line_items` in `setup` mode.',
      });
    const successUrl = checkSuccessUrl(form);
    const allowed = form.allowed_payment_method_types;
    if (allowed !== undefined && (!Array.isArray(allowed) || allowed.length === 0 || allowed.some((t) => t !== 'card'))) {
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        param: 'allowed_payment_method_types',
        message: 'This loopback saves cards only: allowed_payment_method_types may name card alone.',
      });
    }
    if (allowed === undefined && typeof form.currency !== 'string')
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        param: 'currency',
        message: 'Missing required param: currency.',
      });
    const customer = typeof form.customer === 'string' ? customerOn(account, form.customer, 'customer').object.id : null;
    const id = random('cs_test');
    const now = Math.floor(Date.now() / 1000);
    const object: CheckoutSessionObject = {
      id,
      object: 'checkout.session',
      url: `${base}/c/pay/${id}`,
      status: 'open',
      payment_status: 'no_payment_required',
      mode: 'setup',
      amount_total: null,
      amount_subtotal: null,
      currency: typeof form.currency === 'string' ? form.currency.toLowerCase() : null,
      allowed_payment_method_types: ['card'],
      customer,
      client_reference_id: typeof form.client_reference_id === 'string' ? form.client_reference_id : null,
      customer_email: null,
      metadata: (form.metadata as Record<string, string> | undefined) ?? {},
      success_url: successUrl,
      cancel_url: typeof form.cancel_url === 'string' ? form.cancel_url : null,
      payment_intent: null,
      setup_intent: null,
      created: now,
      expires_at: now + 24 * 3600,
      livemode: false,
      line_items_summary: [],
    };
    sessions.set(id, { account, object, charges: 0, pendingAction: false, error: null, pendingCard: null });
    return object;
  };

  const createSession = (account: string | undefined, form: Record<string, unknown>): CheckoutSessionObject => {
    // Removed with API version 2026-09-30 (allowed_payment_method_types filters instead).
    unknownParameter(form, 'payment_method_types');
    if (form.mode === 'setup') return createSetupSession(account, form);
    if (!account)
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        message: 'This loopback serves Checkout on connected accounts only (Stripe-Account).',
      });
    const details = accounts.get(account);
    if (!details?.chargesEnabled) {
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        message: 'Your destination account needs to have at least one of the following capabilities enabled: transfers, card_payments',
      });
    }
    if (form.mode !== 'payment')
      throw new StripeFailure(400, { type: 'invalid_request_error', param: 'mode', message: 'Missing required param: mode.' });
    const successUrl = checkSuccessUrl(form);
    const items = form.line_items;
    if (!Array.isArray(items) || items.length === 0)
      throw new StripeFailure(400, { type: 'invalid_request_error', param: 'line_items', message: 'Missing required param: line_items.' });
    let total = 0;
    let currency = '';
    items.forEach((raw, i) => {
      const item = raw as { quantity?: string; price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string } } };
      const amount = Number(item.price_data?.unit_amount);
      const quantity = Number(item.quantity);
      if (!item.price_data?.currency)
        throw new StripeFailure(400, {
          type: 'invalid_request_error',
          param: `line_items[${i}][price_data][currency]`,
          message: 'Missing required param: line_items[0][price_data][currency].',
        });
      if (!Number.isInteger(amount) || amount < 50) {
        throw new StripeFailure(400, {
          type: 'invalid_request_error',
          param: `line_items[${i}][price_data][unit_amount]`,
          message: "The Checkout Session's total amount due must add up to at least $0.50 usd",
        });
      }
      if (!item.price_data.product_data?.name)
        throw new StripeFailure(400, {
          type: 'invalid_request_error',
          param: `line_items[${i}][price_data][product_data][name]`,
          message: 'Missing required param: name.',
        });
      if (!Number.isInteger(quantity) || quantity < 1)
        throw new StripeFailure(400, { type: 'invalid_request_error', param: `line_items[${i}][quantity]`, message: 'Invalid integer' });
      total += amount * quantity;
      currency = item.price_data.currency;
    });
    const id = random('cs_test');
    const now = Math.floor(Date.now() / 1000);
    const object: CheckoutSessionObject = {
      id,
      object: 'checkout.session',
      url: `${base}/c/pay/${id}`,
      status: 'open',
      payment_status: 'unpaid',
      mode: 'payment',
      amount_total: total,
      amount_subtotal: total,
      currency,
      client_reference_id: typeof form.client_reference_id === 'string' ? form.client_reference_id : null,
      customer: null,
      customer_email: typeof form.customer_email === 'string' ? form.customer_email : null,
      metadata: (form.metadata as Record<string, string> | undefined) ?? {},
      success_url: successUrl,
      cancel_url: typeof form.cancel_url === 'string' ? form.cancel_url : null,
      payment_intent: null,
      setup_intent: null,
      created: now,
      expires_at: now + 24 * 3600,
      livemode: false,
      line_items_summary: items.map(
        (raw) => (raw as { price_data?: { product_data?: { name?: string } } }).price_data?.product_data?.name ?? '',
      ),
    };
    sessions.set(id, { account, object, charges: 0, pendingAction: false, error: null, pendingCard: null });
    return object;
  };

  const sessionOn = (account: string | undefined, id: string) => {
    const found = sessions.get(id);
    if (!found || found.account !== account) throw missing('checkout.session', id);
    return found;
  };

  /** One charge of an open session; answers false when it is not open (a second try at once). */
  const complete = async (sessionId: string, awaitWebhook: boolean): Promise<boolean> => {
    const entry = sessions.get(sessionId);
    if (!entry || entry.object.mode !== 'payment' || entry.object.status !== 'open') return false;
    const pi = random('pi');
    entry.charges += 1;
    entry.pendingAction = false;
    entry.error = null;
    entry.object.status = 'complete';
    entry.object.payment_status = 'paid';
    entry.object.payment_intent = pi;
    paymentIntents.set(pi, { sessionId, account: entry.account, amount: entry.object.amount_total ?? 0, refunded: 0 });
    const sent = deliver(eventFor('checkout.session.completed', { ...entry.object }, entry.account));
    if (awaitWebhook) await sent;
    else void sent;
    return true;
  };

  /** The test card rules, shared by the page and pay(). */
  const tryCard = async (sessionId: string, card: string, awaitWebhook: boolean): Promise<PayOutcome> => {
    const entry = sessions.get(sessionId);
    if (!entry || entry.object.mode !== 'payment' || entry.object.status !== 'open') return 'invalid';
    const digits = card.replace(/\s+/g, '');
    if (digits === '4242424242424242') return (await complete(sessionId, awaitWebhook)) ? 'paid' : 'invalid';
    if (digits === '4000000000000002') {
      entry.error = DECLINED_MESSAGE;
      return 'declined';
    }
    if (digits === '4000002500003155') {
      entry.pendingAction = true;
      return 'requires_action';
    }
    entry.error = 'Your card number is invalid.';
    return 'invalid';
  };

  const authenticate = async (sessionId: string, ok: boolean, awaitWebhook: boolean): Promise<PayOutcome> => {
    const entry = sessions.get(sessionId);
    if (!entry || entry.object.mode !== 'payment' || entry.object.status !== 'open' || !entry.pendingAction) return 'invalid';
    if (ok) return (await complete(sessionId, awaitWebhook)) ? 'paid' : 'invalid';
    entry.pendingAction = false;
    entry.error = AUTHENTICATION_MESSAGE;
    return 'authentication_failed';
  };

  // ---- saved cards: Checkout in setup mode, its SetupIntent and PaymentMethod ----

  const setupIntentOf = (entry: SessionEntry) => {
    const existing = entry.object.setup_intent ? setupIntents.get(entry.object.setup_intent) : undefined;
    if (existing) return existing.object;
    const object = {
      id: random('seti'),
      object: 'setup_intent',
      status: 'requires_payment_method',
      usage: 'off_session',
      customer: entry.object.customer,
      payment_method: null as string | null,
      allowed_payment_method_types: ['card'],
      last_setup_error: null as Record<string, unknown> | null,
      next_action: null as Record<string, unknown> | null,
      metadata: {},
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    setupIntents.set(object.id, { account: entry.account, object });
    entry.object.setup_intent = object.id;
    return object;
  };

  /** The card is saved: a PaymentMethod (attached to the session's customer), the SetupIntent succeeded, the session complete. */
  const saveCompleted = async (
    entry: SessionEntry,
    card: { digits: string; expMonth: number; expYear: number },
    awaitWebhook: boolean,
  ): Promise<boolean> => {
    if (entry.object.status !== 'open') return false;
    const intent = setupIntentOf(entry);
    const method: PaymentMethodObject = {
      id: random('pm'),
      object: 'payment_method',
      type: 'card',
      allow_redisplay: 'unspecified',
      billing_details: { address: null, email: null, name: null, phone: null },
      card: {
        brand: 'visa',
        display_brand: 'visa',
        country: 'US',
        funding: 'credit',
        last4: card.digits.slice(-4),
        exp_month: card.expMonth,
        exp_year: card.expYear,
        fingerprint: createHash('sha256').update(card.digits).digest('base64url').slice(0, 16),
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
        three_d_secure_usage: { supported: true },
        wallet: null,
      },
      customer: entry.object.customer,
      metadata: {},
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    paymentMethods.set(method.id, { account: entry.account, object: method, digits: card.digits, detached: false });
    Object.assign(intent, { status: 'succeeded', payment_method: method.id, last_setup_error: null, next_action: null });
    entry.object.status = 'complete';
    entry.pendingAction = false;
    entry.pendingCard = null;
    entry.error = null;
    const sent = deliver(eventFor('checkout.session.completed', { ...entry.object }, entry.account));
    if (awaitWebhook) await sent;
    else void sent;
    return true;
  };

  /** The test card rules of a setup page, shared by the page and saveCard(). */
  const trySave = async (
    sessionId: string,
    card: string,
    expiry: { expMonth: number; expYear: number },
    awaitWebhook: boolean,
  ): Promise<SaveCardOutcome> => {
    const entry = sessions.get(sessionId);
    if (!entry || entry.object.mode !== 'setup' || entry.object.status !== 'open') return 'invalid';
    const digits = card.replace(/\s+/g, '');
    entry.pendingAction = false;
    entry.pendingCard = null;
    if (!(Object.values(CARDS) as string[]).includes(digits)) {
      entry.error = 'Your card number is invalid.';
      return 'invalid';
    }
    const intent = setupIntentOf(entry);
    if (digits === CARDS.declined) {
      entry.error = DECLINED_MESSAGE;
      Object.assign(intent, {
        status: 'requires_payment_method',
        last_setup_error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: DECLINED_MESSAGE },
      });
      return 'declined';
    }
    if (digits === CARDS.threeDSecure || digits === CARDS.alwaysAuthenticate) {
      entry.pendingAction = true;
      entry.pendingCard = { digits, ...expiry };
      Object.assign(intent, { status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
      return 'requires_action';
    }
    return (await saveCompleted(entry, { digits, ...expiry }, awaitWebhook)) ? 'saved' : 'invalid';
  };

  const authenticateSave = async (sessionId: string, ok: boolean, awaitWebhook: boolean): Promise<SaveCardOutcome> => {
    const entry = sessions.get(sessionId);
    if (!entry || entry.object.mode !== 'setup' || entry.object.status !== 'open' || !entry.pendingCard) return 'invalid';
    if (ok) return (await saveCompleted(entry, entry.pendingCard, awaitWebhook)) ? 'saved' : 'invalid';
    entry.pendingAction = false;
    entry.pendingCard = null;
    entry.error = AUTHENTICATION_MESSAGE;
    Object.assign(setupIntentOf(entry), {
      status: 'requires_payment_method',
      next_action: null,
      last_setup_error: { type: 'invalid_request_error', code: 'setup_intent_authentication_failure', message: AUTHENTICATION_MESSAGE },
    });
    return 'authentication_failed';
  };

  const defaultExpiry = () => ({ expMonth: 12, expYear: new Date().getFullYear() + 3 });

  /** The page's "MM / YY" (or MM/YYYY); empty: the default; undefined when it is no expiry date in the future. */
  const parseExpiry = (text: string): { expMonth: number; expYear: number } | undefined => {
    if (text.trim() === '') return defaultExpiry();
    const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
    if (!match) return undefined;
    const expMonth = Number(match[1]);
    const expYear = Number(match[2]) + ((match[2] ?? '').length === 2 ? 2000 : 0);
    const now = new Date();
    if (expMonth < 1 || expMonth > 12) return undefined;
    if (expYear < now.getFullYear() || (expYear === now.getFullYear() && expMonth < now.getMonth() + 1)) return undefined;
    return { expMonth, expYear };
  };

  // ---- the API's objects of saved cards ----

  const createCustomer = (account: string | undefined, form: Record<string, unknown>) => {
    const text = (name: string) => (typeof form[name] === 'string' && form[name] !== '' ? (form[name] as string) : null);
    const object = {
      id: random('cus'),
      object: 'customer',
      address: null,
      balance: 0,
      created: Math.floor(Date.now() / 1000),
      currency: null,
      default_source: null,
      delinquent: false,
      description: text('description'),
      email: text('email'),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false,
      metadata: (form.metadata as Record<string, string> | undefined) ?? {},
      name: text('name'),
      phone: null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
    };
    customers.set(object.id, { account, object });
    return object;
  };

  const paymentMethodOn = (account: string | undefined, id: string, param = 'id') => {
    const found = paymentMethods.get(id);
    if (!found || found.account !== account) throw missing('PaymentMethod', id, param);
    return found;
  };

  const detach = (account: string | undefined, id: string) => {
    const found = paymentMethodOn(account, id);
    if (found.object.customer === null) {
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        message: 'The payment method you provided is not attached to a customer so detachment is impossible.',
      });
    }
    found.object.customer = null;
    found.detached = true;
    void deliver(eventFor('payment_method.detached', { ...found.object }, account));
    return found.object;
  };

  /** A PaymentIntent; confirmed at once (confirm=true): a charge of a saved card, a destination charge with transfer_data. */
  const createPaymentIntent = (account: string | undefined, form: Record<string, unknown>): PaymentIntentObject => {
    unknownParameter(form, 'payment_method_types');
    const invalid = (param: string, message: string, code?: string) =>
      new StripeFailure(400, { type: 'invalid_request_error', param, message, ...(code ? { code } : {}) });
    const amount = Number(form.amount);
    if (form.amount === undefined) throw invalid('amount', 'Missing required param: amount.', 'parameter_missing');
    if (!Number.isInteger(amount) || amount < 50) throw invalid('amount', 'Amount must be at least $0.50 usd', 'amount_too_small');
    if (typeof form.currency !== 'string' || form.currency === '')
      throw invalid('currency', 'Missing required param: currency.', 'parameter_missing');
    const customer = typeof form.customer === 'string' ? customerOn(account, form.customer, 'customer').object.id : null;
    const destination = (form.transfer_data as { destination?: unknown } | undefined)?.destination;
    if (form.transfer_data !== undefined) {
      if (typeof destination !== 'string' || !accounts.has(destination))
        throw invalid('transfer_data[destination]', `No such destination: '${String(destination ?? '')}'`);
      if (!accounts.get(destination)?.chargesEnabled)
        throw invalid(
          'transfer_data[destination]',
          'Your destination account needs to have at least one of the following capabilities enabled: transfers, legacy_payments',
        );
    }
    const confirm = form.confirm === 'true';
    const offSession = form.off_session === 'true';
    if (form.off_session !== undefined && !confirm)
      throw invalid('off_session', 'You may only specify `off_session` when `confirm` is true.');
    const method = typeof form.payment_method === 'string' ? paymentMethodOn(account, form.payment_method, 'payment_method') : undefined;
    if (method?.detached) throw invalid('payment_method', DETACHED_MESSAGE);
    if (method && method.object.customer !== null && method.object.customer !== customer) {
      throw customer === null
        ? invalid('customer', 'The provided PaymentMethod is attached to a Customer: pass that Customer as `customer` to use it.')
        : invalid('payment_method', `The provided PaymentMethod does not belong to the Customer '${customer}'.`);
    }
    if (confirm && !method) throw invalid('payment_method', "You cannot confirm this PaymentIntent because it's missing a payment method.");
    const object: PaymentIntentObject = {
      id: random('pi'),
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: form.currency.toLowerCase(),
      customer,
      payment_method: method?.object.id ?? null,
      allowed_payment_method_types: ['card'],
      capture_method: 'automatic_async',
      confirmation_method: 'automatic',
      description: typeof form.description === 'string' ? form.description : null,
      metadata: (form.metadata as Record<string, string> | undefined) ?? {},
      status: method ? 'requires_confirmation' : 'requires_payment_method',
      transfer_data: typeof destination === 'string' ? { destination } : null,
      latest_charge: null,
      last_payment_error: null,
      next_action: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    apiIntents.set(object.id, { account, object });
    if (!confirm || !method) return object;
    const refuse = (code: string, declineCode: string, message: string) => {
      const charge = random('ch');
      const error = { type: 'card_error', code, decline_code: declineCode, message, charge };
      Object.assign(object, {
        status: 'requires_payment_method',
        latest_charge: charge,
        last_payment_error: { ...error, payment_method: { ...method.object } },
      });
      void deliver(eventFor('payment_intent.payment_failed', { ...object }, account));
      return new StripeFailure(402, { ...error, payment_intent: { ...object }, payment_method: { ...method.object } });
    };
    if (method.digits === CARDS.chargeDeclined) throw refuse('card_declined', 'generic_decline', DECLINED_MESSAGE);
    if (method.digits === CARDS.alwaysAuthenticate) {
      if (offSession) throw refuse('authentication_required', 'authentication_required', AUTHENTICATION_REQUIRED_MESSAGE);
      Object.assign(object, { status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
      return object;
    }
    Object.assign(object, { status: 'succeeded', amount_received: amount, latest_charge: random('ch') });
    paymentIntents.set(object.id, { sessionId: null, account, amount, refunded: 0 });
    void deliver(eventFor('payment_intent.succeeded', { ...object }, account));
    return object;
  };

  /** Any object of an account by its id, for expand[]. */
  const lookup = (account: string | undefined, id: string): Record<string, unknown> | undefined => {
    const found =
      customers.get(id) ?? paymentMethods.get(id) ?? setupIntents.get(id) ?? apiIntents.get(id) ?? sessions.get(id) ?? undefined;
    return found && found.account === account ? found.object : undefined;
  };

  /** Stripe's expand[]: each dotted path names a field holding an id, replaced by that object (a copy). */
  const expand = (account: string | undefined, answer: unknown, paths: unknown): unknown => {
    if (!Array.isArray(paths) || paths.length === 0) return answer;
    const root = structuredClone(answer) as Record<string, unknown>;
    for (const path of paths) {
      const parts = String(path).split('.');
      let nodes: Array<Record<string, unknown>> = [root];
      parts.forEach((part, i) => {
        const next: Array<Record<string, unknown>> = [];
        for (const node of nodes) {
          const value = node[part];
          if (value === null) continue;
          if (typeof value === 'string') {
            const found = lookup(account, value);
            if (!found)
              throw new StripeFailure(400, {
                type: 'invalid_request_error',
                message: `This property cannot be expanded (${parts.slice(0, i + 1).join('.')}).`,
              });
            node[part] = structuredClone(found);
            next.push(node[part] as Record<string, unknown>);
          } else if (typeof value === 'object') next.push(value as Record<string, unknown>);
          else
            throw new StripeFailure(400, {
              type: 'invalid_request_error',
              message: `This property cannot be expanded (${parts.slice(0, i + 1).join('.')}).`,
            });
        }
        nodes = next;
      });
    }
    return root;
  };

  const refund = (account: string | undefined, form: Record<string, unknown>) => {
    const piId = String(form.payment_intent ?? '');
    const pi = paymentIntents.get(piId);
    if (!pi || pi.account !== account) throw missing('payment_intent', piId, 'payment_intent');
    const amount = form.amount === undefined ? pi.amount - pi.refunded : Number(form.amount);
    if (!Number.isInteger(amount) || amount < 1 || amount > pi.amount - pi.refunded) {
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        param: 'amount',
        message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${((pi.amount - pi.refunded) / 100).toFixed(2)})`,
      });
    }
    pi.refunded += amount;
    const refundObject = { id: random('re'), object: 'refund', amount, currency: 'usd', payment_intent: piId, status: 'succeeded' };
    const charge = {
      id: random('ch'),
      object: 'charge',
      payment_intent: piId,
      amount: pi.amount,
      amount_refunded: pi.refunded,
      refunded: pi.refunded === pi.amount,
      currency: 'usd',
    };
    void deliver(eventFor('charge.refunded', charge, pi.account));
    return refundObject;
  };

  const route = (req: IncomingMessage, account: string | undefined, path: string, form: Record<string, unknown>): unknown => {
    let match: RegExpExecArray | null;
    const id = () => decodeURIComponent(match?.[1] ?? '');
    if (req.method === 'GET' && (match = /^\/v1\/accounts\/([^/]+)$/.exec(path))) {
      const found = accounts.get(decodeURIComponent(match[1] ?? ''));
      if (!found) throw missing('account', decodeURIComponent(match[1] ?? ''), 'account');
      return {
        id: found.id,
        object: 'account',
        type: 'standard',
        charges_enabled: found.chargesEnabled,
        details_submitted: found.detailsSubmitted,
        payouts_enabled: found.chargesEnabled,
      };
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') return createSession(account, form);
    if (req.method === 'GET' && (match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)))
      return sessionOn(account, match[1] ?? '').object;
    if (req.method === 'POST' && (match = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path))) {
      const entry = sessionOn(account, match[1] ?? '');
      if (entry.object.status !== 'open') {
        throw new StripeFailure(400, {
          type: 'invalid_request_error',
          message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${entry.object.status}".`,
        });
      }
      entry.object.status = 'expired';
      void deliver(eventFor('checkout.session.expired', { ...entry.object }, entry.account));
      return entry.object;
    }
    if (req.method === 'POST' && path === '/v1/refunds') return refund(account, form);
    if (req.method === 'POST' && path === '/v1/customers') return createCustomer(account, form);
    if (req.method === 'GET' && (match = /^\/v1\/customers\/([^/]+)$/.exec(path))) return customerOn(account, id()).object;
    if (req.method === 'GET' && (match = /^\/v1\/setup_intents\/([^/]+)$/.exec(path))) {
      const found = setupIntents.get(id());
      if (!found || found.account !== account) throw missing('setupintent', id());
      return found.object;
    }
    if (req.method === 'GET' && (match = /^\/v1\/payment_methods\/([^/]+)$/.exec(path))) return paymentMethodOn(account, id()).object;
    if (req.method === 'POST' && (match = /^\/v1\/payment_methods\/([^/]+)\/detach$/.exec(path))) return detach(account, id());
    if (req.method === 'POST' && path === '/v1/payment_intents') return createPaymentIntent(account, form);
    if (req.method === 'GET' && (match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
      const found = apiIntents.get(id());
      if (!found || found.account !== account) throw missing('payment_intent', id());
      return found.object;
    }
    throw new StripeFailure(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path}).` });
  };

  const api = (req: IncomingMessage, path: string, form: Record<string, unknown>): unknown => {
    const account = connected(req);
    return expand(account, route(req, account, path, form), form.expand);
  };

  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': random('req'), 'stripe-version': API_VERSION, ...headers });
    res.end(body);
  };

  const handleApi = async (req: IncomingMessage, res: ServerResponse, path: string, query: string, raw: string): Promise<void> => {
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      const shown = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      send(
        res,
        401,
        JSON.stringify({ error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${shown.slice(0, 8)}****` } }),
      );
      return;
    }
    // GET takes its parameters (expand[]) in the query, POST in the form body.
    const form = parseStripeForm(req.method === 'GET' ? query : raw);
    const key = req.method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const slot = typeof key === 'string' ? `${String(req.headers['stripe-account'] ?? '')}|${key}` : undefined;
    const fingerprint = `${req.method} ${path} ${raw}`;
    // One request per key at a time: the later ones wait, then answer the stored response.
    while (slot && idempotency.get(slot) instanceof Promise) await idempotency.get(slot);
    const stored = slot ? idempotency.get(slot) : undefined;
    if (stored && !(stored instanceof Promise)) {
      if (stored.fingerprint !== fingerprint) {
        send(
          res,
          400,
          JSON.stringify({
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${String(key)}' if you meant to execute a different request.`,
            },
          }),
        );
        return;
      }
      send(res, stored.status, stored.body, { 'idempotent-replayed': 'true' });
      return;
    }
    let release = () => undefined as void;
    if (slot) idempotency.set(slot, new Promise<void>((resolve) => (release = resolve)));
    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(api(req, path, form));
    } catch (error) {
      if (!(error instanceof StripeFailure)) {
        // Not Stripe's answer but the loopback's own fault: nothing is kept for the key (those waiting go on).
        if (slot) idempotency.delete(slot);
        release();
        throw error;
      }
      status = error.status;
      body = JSON.stringify({ error: error.body });
    }
    if (slot) idempotency.set(slot, { fingerprint, status, body });
    release();
    send(res, status, body);
  };

  const page = (res: ServerResponse, status: number, title: string, inner: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
        `<style>body{font-family:sans-serif;margin:0;background:#f6f9fc}main{max-width:28rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px}label{display:block;margin:.75rem 0 .25rem}input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}button{margin-top:1rem;width:100%;padding:.75rem;font-size:1rem}[role=alert]{color:#b00020}</style>` +
        `</head><body><main>${inner}</main></body></html>`,
    );
  };

  const checkoutPage = (res: ServerResponse, entry: { object: CheckoutSessionObject; error: string | null; pendingAction: boolean }) => {
    const o = entry.object;
    const names = (o.line_items_summary as string[]).join(', ');
    if (o.status !== 'open') {
      page(res, 410, 'Checkout', `<h1>This Checkout Session is no longer available</h1><p>It is ${escapeHtml(o.status)}.</p>`);
      return;
    }
    if (o.mode === 'setup') return setupPage(res, entry);
    if (entry.pendingAction) {
      page(
        res,
        200,
        'Authentication',
        `<h1>3D Secure 2 Test Page</h1><p>${escapeHtml(names)}: ${usd(o.amount_total ?? 0)}</p>` +
          `<form method="post" action="/c/pay/${o.id}/authenticate"><button name="result" value="complete">Complete authentication</button><button name="result" value="fail">Fail authentication</button></form>`,
      );
      return;
    }
    page(
      res,
      200,
      'Checkout',
      `<h1>${escapeHtml(names)}</h1><p class="amount">${usd(o.amount_total ?? 0)}</p>` +
        (entry.error ? `<p role="alert">${escapeHtml(entry.error)}</p>` : '') +
        `<form method="post" action="/c/pay/${o.id}">` +
        `<label for="email">Email</label><input id="email" name="email" type="email" value="${escapeHtml(String(o.customer_email ?? ''))}">` +
        `<label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234">` +
        `<label for="exp">Expiration</label><input id="exp" name="exp" placeholder="MM / YY" autocomplete="cc-exp">` +
        `<label for="cvc">CVC</label><input id="cvc" name="cvc" autocomplete="cc-csc">` +
        `<button type="submit">Pay</button></form>` +
        (o.cancel_url ? `<p><a href="${escapeHtml(o.cancel_url)}">Cancel</a></p>` : ''),
    );
  };

  /** Checkout in setup mode: the card form saves (nothing is charged), its 3-D Secure step as on the pay page. */
  const setupPage = (res: ServerResponse, entry: { object: CheckoutSessionObject; error: string | null; pendingAction: boolean }) => {
    const o = entry.object;
    if (entry.pendingAction) {
      page(
        res,
        200,
        'Authentication',
        `<h1>3D Secure 2 Test Page</h1><p>Saving a card for future payments</p>` +
          `<form method="post" action="/c/pay/${o.id}/authenticate"><button name="result" value="complete">Complete authentication</button><button name="result" value="fail">Fail authentication</button></form>`,
      );
      return;
    }
    const email = o.customer ? (customers.get(o.customer)?.object.email ?? '') : '';
    page(
      res,
      200,
      'Save a card',
      `<h1>Save a card</h1><p>For future payments. Nothing is charged now.</p>` +
        (entry.error ? `<p role="alert">${escapeHtml(entry.error)}</p>` : '') +
        `<form method="post" action="/c/pay/${o.id}">` +
        `<label for="email">Email</label><input id="email" name="email" type="email" value="${escapeHtml(email)}">` +
        `<label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234">` +
        `<label for="exp">Expiration</label><input id="exp" name="exp" placeholder="MM / YY" autocomplete="cc-exp">` +
        `<label for="cvc">CVC</label><input id="cvc" name="cvc" autocomplete="cc-csc">` +
        `<button type="submit">Save card</button></form>` +
        (o.cancel_url ? `<p><a href="${escapeHtml(o.cancel_url)}">Cancel</a></p>` : ''),
    );
  };

  /** A post of the setup page (a card, or the answer to its 3-D Secure step). */
  const postSetupPage = async (entry: SessionEntry, authenticating: boolean, form: URLSearchParams): Promise<SaveCardOutcome> => {
    if (authenticating) return authenticateSave(entry.object.id, form.get('result') === 'complete', false);
    const expiry = parseExpiry(form.get('exp') ?? '');
    if (!expiry) {
      if (entry.object.status === 'open') entry.error = "Your card's expiration date is incomplete or in the past.";
      return 'invalid';
    }
    return trySave(entry.object.id, form.get('card') ?? '', expiry, false);
  };

  const redirectToSuccess = (res: ServerResponse, o: CheckoutSessionObject) => {
    res.writeHead(303, { location: o.success_url.replace('{CHECKOUT_SESSION_ID}', o.id) });
    res.end();
  };

  const handlePage = async (req: IncomingMessage, res: ServerResponse, path: string, raw: string) => {
    const match = /^\/c\/pay\/([^/]+)(\/authenticate)?$/.exec(path);
    const entry = match ? sessions.get(match[1] ?? '') : undefined;
    if (!match || !entry) {
      page(res, 404, 'Not found', '<h1>Something went wrong</h1><p>The page you were looking for could not be found.</p>');
      return;
    }
    if (req.method === 'GET') return checkoutPage(res, entry);
    const form = new URLSearchParams(raw);
    if (entry.object.mode === 'setup') {
      const saved = await postSetupPage(entry, match[2] !== undefined, form);
      if (saved === 'saved') return redirectToSuccess(res, entry.object);
      return checkoutPage(res, entry);
    }
    const outcome = match[2]
      ? await authenticate(entry.object.id, form.get('result') === 'complete', false)
      : await tryCard(entry.object.id, form.get('card') ?? '', false);
    if (outcome === 'paid') return redirectToSuccess(res, entry.object);
    return checkoutPage(res, entry);
  };

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const { pathname: path, search } = new URL(req.url ?? '/', 'http://loopback');
      if (path === '/favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      if (path === '/health') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"up"}');
        return;
      }
      const work = path.startsWith('/v1/') ? handleApi(req, res, path, search.slice(1), raw) : handlePage(req, res, path, raw);
      work.catch((error: unknown) => send(res, 500, JSON.stringify({ error: { type: 'api_error', message: String(error) } })));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;

  return {
    url: base,
    host: '127.0.0.1',
    port,
    secretKey,
    webhookSecret,
    deliveries,
    setWebhookUrl: (url) => {
      webhookUrl = url;
    },
    addAccount: (account) => {
      accounts.set(account.id, account);
    },
    session: (id) => sessions.get(id)?.object,
    charges: (sessionId) =>
      sessionId === undefined
        ? [...sessions.values()].reduce((n, s) => n + s.charges, 0) +
          [...apiIntents.values()].filter((p) => p.object.status === 'succeeded').length
        : (sessions.get(sessionId)?.charges ?? 0),
    customer: (id) => customers.get(id)?.object,
    paymentMethod: (id) => paymentMethods.get(id)?.object,
    paymentIntents: (customer) =>
      [...apiIntents.values()].map((p) => p.object).filter((p) => customer === undefined || p.customer === customer),
    async pay(sessionId, card, payOptions = {}) {
      const outcome = await tryCard(sessionId, card, true);
      if (outcome === 'requires_action' && payOptions.authenticate !== undefined)
        return authenticate(sessionId, payOptions.authenticate, true);
      return outcome;
    },
    async saveCard(sessionId, card, saveOptions = {}) {
      const expiry = {
        expMonth: saveOptions.expMonth ?? defaultExpiry().expMonth,
        expYear: saveOptions.expYear ?? defaultExpiry().expYear,
      };
      const outcome = await trySave(sessionId, card, expiry, true);
      if (outcome === 'requires_action' && saveOptions.authenticate !== undefined)
        return authenticateSave(sessionId, saveOptions.authenticate, true);
      return outcome;
    },
    signedEvent(type, object, account) {
      const event = eventFor(type, object, account);
      const payload = JSON.stringify(event, null, 2);
      return { payload, header: stripeSignature(payload, webhookSecret), event };
    },
    deliver,
    holdWebhooks() {
      holding ??= [];
    },
    async releaseWebhooks() {
      const waiting = holding ?? [];
      holding = null;
      const before = deliveries.length;
      for (const go of waiting) go();
      // Each held delivery resumes and records its answer; wait until all of them have.
      while (deliveries.length < before + waiting.length) await new Promise((r) => setTimeout(r, 10));
      return deliveries.slice(before).map((d) => d.status);
    },
    money(orderId) {
      let charged = 0;
      let refunded = 0;
      for (const pi of paymentIntents.values()) {
        const session = pi.sessionId ? sessions.get(pi.sessionId) : undefined;
        if (session?.object.client_reference_id !== orderId) continue;
        charged += pi.amount;
        refunded += pi.refunded;
      }
      return { charged, refunded };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
