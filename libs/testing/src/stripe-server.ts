import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback server that speaks the part of Stripe's HTTP API the payment adapter uses (connected
 * accounts, Checkout Sessions, refunds, idempotency keys), serves a hosted checkout page with Stripe's
 * test cards, and delivers webhooks signed with Stripe's scheme (HMAC-SHA256 of "t.payload"), written
 * here from Stripe's documentation, independent of the SDK the adapter uses. The tests and the
 * end-to-end run point the `stripe` SDK at it (host, port, protocol).
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
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  payment_intent: string | null;
  amount_total: number;
  currency: string;
  success_url: string;
  cancel_url: string | null;
  client_reference_id: string | null;
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

export interface LoopbackStripe {
  url: string;
  host: string;
  port: number;
  secretKey: string;
  webhookSecret: string;
  setWebhookUrl(url: string | undefined): void;
  addAccount(account: LoopbackStripeAccount): void;
  session(id: string): CheckoutSessionObject | undefined;
  /** PaymentIntents created (charges) for a session, or in all. */
  charges(sessionId?: string): number;
  deliveries: Array<{ event: StripeEvent; status: number; body: string }>;
  /** Pays a session with a test card as the hosted page would (`authenticate` answers a 3-D Secure step). */
  pay(sessionId: string, card: string, options?: { authenticate?: boolean }): Promise<PayOutcome>;
  signedEvent(type: string, object: unknown, account?: string): { payload: string; header: string; event: StripeEvent };
  deliver(event: StripeEvent): Promise<number>;
  close(): Promise<void>;
}

const API_VERSION = '2026-10-28.endive';
export const DECLINED_MESSAGE = 'Your card was declined.';
export const AUTHENTICATION_MESSAGE =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

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
    readonly body: { type: string; message: string; code?: string; param?: string },
  ) {
    super(body.message);
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

export async function startLoopbackStripe(options: LoopbackStripeOptions = {}): Promise<LoopbackStripe> {
  const secretKey = options.secretKey ?? 'sk_test_loopback';
  const webhookSecret = options.webhookSecret ?? 'whsec_loopback';
  let webhookUrl = options.webhookUrl;
  const accounts = new Map((options.accounts ?? []).map((a) => [a.id, a]));
  const sessions = new Map<
    string,
    { account: string; object: CheckoutSessionObject; charges: number; pendingAction: boolean; error: string | null }
  >();
  const paymentIntents = new Map<string, { sessionId: string; account: string; amount: number; refunded: number }>();
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

  const deliver = async (event: StripeEvent): Promise<number> => {
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

  const createSession = (account: string | undefined, form: Record<string, unknown>): CheckoutSessionObject => {
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
    if (typeof form.success_url !== 'string' || !/^https?:\/\//.test(form.success_url)) {
      throw new StripeFailure(400, { type: 'invalid_request_error', param: 'success_url', message: 'Not a valid URL' });
    }
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
      customer_email: typeof form.customer_email === 'string' ? form.customer_email : null,
      metadata: (form.metadata as Record<string, string> | undefined) ?? {},
      success_url: form.success_url,
      cancel_url: typeof form.cancel_url === 'string' ? form.cancel_url : null,
      payment_intent: null,
      created: now,
      expires_at: now + 24 * 3600,
      livemode: false,
      line_items_summary: items.map(
        (raw) => (raw as { price_data?: { product_data?: { name?: string } } }).price_data?.product_data?.name ?? '',
      ),
    };
    sessions.set(id, { account, object, charges: 0, pendingAction: false, error: null });
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
    if (!entry || entry.object.status !== 'open') return false;
    const pi = random('pi');
    entry.charges += 1;
    entry.pendingAction = false;
    entry.error = null;
    entry.object.status = 'complete';
    entry.object.payment_status = 'paid';
    entry.object.payment_intent = pi;
    paymentIntents.set(pi, { sessionId, account: entry.account, amount: entry.object.amount_total, refunded: 0 });
    const sent = deliver(eventFor('checkout.session.completed', { ...entry.object }, entry.account));
    if (awaitWebhook) await sent;
    else void sent;
    return true;
  };

  /** The test card rules, shared by the page and pay(). */
  const tryCard = async (sessionId: string, card: string, awaitWebhook: boolean): Promise<PayOutcome> => {
    const entry = sessions.get(sessionId);
    if (!entry || entry.object.status !== 'open') return 'invalid';
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
    if (!entry || entry.object.status !== 'open' || !entry.pendingAction) return 'invalid';
    if (ok) return (await complete(sessionId, awaitWebhook)) ? 'paid' : 'invalid';
    entry.pendingAction = false;
    entry.error = AUTHENTICATION_MESSAGE;
    return 'authentication_failed';
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

  const api = (req: IncomingMessage, path: string, form: Record<string, unknown>): unknown => {
    const account = connected(req);
    let match: RegExpExecArray | null;
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
    throw new StripeFailure(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path}).` });
  };

  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': random('req'), 'stripe-version': API_VERSION, ...headers });
    res.end(body);
  };

  const handleApi = async (req: IncomingMessage, res: ServerResponse, path: string, raw: string): Promise<void> => {
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      const shown = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      send(
        res,
        401,
        JSON.stringify({ error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${shown.slice(0, 8)}****` } }),
      );
      return;
    }
    const form = req.method === 'GET' ? {} : parseStripeForm(raw);
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
      if (!(error instanceof StripeFailure)) throw error;
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
    if (entry.pendingAction) {
      page(
        res,
        200,
        'Authentication',
        `<h1>3D Secure 2 Test Page</h1><p>${escapeHtml(names)}: ${usd(o.amount_total)}</p>` +
          `<form method="post" action="/c/pay/${o.id}/authenticate"><button name="result" value="complete">Complete authentication</button><button name="result" value="fail">Fail authentication</button></form>`,
      );
      return;
    }
    page(
      res,
      200,
      'Checkout',
      `<h1>${escapeHtml(names)}</h1><p class="amount">${usd(o.amount_total)}</p>` +
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
      const path = new URL(req.url ?? '/', 'http://loopback').pathname;
      if (path === '/favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      if (path === '/health') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"up"}');
        return;
      }
      const work = path.startsWith('/v1/') ? handleApi(req, res, path, raw) : handlePage(req, res, path, raw);
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
      sessionId === undefined ? [...sessions.values()].reduce((n, s) => n + s.charges, 0) : (sessions.get(sessionId)?.charges ?? 0),
    async pay(sessionId, card, payOptions = {}) {
      const outcome = await tryCard(sessionId, card, true);
      if (outcome === 'requires_action' && payOptions.authenticate !== undefined)
        return authenticate(sessionId, payOptions.authenticate, true);
      return outcome;
    },
    signedEvent(type, object, account) {
      const event = eventFor(type, object, account);
      const payload = JSON.stringify(event, null, 2);
      return { payload, header: stripeSignature(payload, webhookSecret), event };
    },
    deliver,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
