/**
 * Safe retries of the calls that create something (issue 32): each such POST carries an
 * Idempotency-Key, made once per call (or the call's own), and is sent again with the same key when
 * nothing answered (a network failure) or the gateway answered 503 — the server answers the object
 * the first try made, if it made one, and never makes a second. Other calls are sent once, as they are.
 */

/** The POST routes whose server takes an Idempotency-Key (index.spec checks this list against openapi.json). */
export const KEYED_ROUTES: readonly string[] = [
  '/v1/users',
  '/v1/users/{guid}/services',
  '/v1/users/{id}/services/{sid}/products',
  '/v1/users/{id}/services/{sid}/order',
  '/v1/orders/{id}/pay',
  '/v1/orders/{id}/complete/{x}',
  '/v1/orders/{id}/refund',
  '/v1/orders/{id}/reply',
  '/v1/requests',
  '/v1/plans',
  '/v1/paymentmethods',
  '/v1/terminals',
  '/v1/terminals/{terminalId}/share',
  '/v1/files',
  '/v1/convert/upload',
  '/v1/convert/fetch',
  '/v1/oauth2/apps',
  '/v1/contact',
];

/** How long to wait before each retry: two retries, after 0.3 s and 1 s. */
export const RETRY_DELAYS_MS: readonly number[] = [300, 1000];

const KEYED = KEYED_ROUTES.map((route) => new RegExp(`^${route.replace(/\{[^}]+\}/g, '[^/]+')}$`));

/** Whether a path (without its query) is a route that takes an Idempotency-Key on POST. */
export function isKeyedPath(path: string): boolean {
  return KEYED.some((route) => route.test(path));
}

/** Whether a request is a POST to a route that takes an Idempotency-Key. */
export function isKeyedCreate(request: Request): boolean {
  return request.method === 'POST' && isKeyedPath(new URL(request.url).pathname);
}

const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
    });
  });
}

export interface KeyedFetchOptions {
  /** The waits before each retry (RETRY_DELAYS_MS); [] sends once. */
  delaysMs?: readonly number[];
  /** A fresh key (a random UUID). */
  newKey?: () => string;
}

/** `fetch` with the creates keyed and retried (see above); every other request passes through. */
export function keyedFetch(
  base: (request: Request) => Promise<Response>,
  options: KeyedFetchOptions = {},
): (request: Request) => Promise<Response> {
  const delays = options.delaysMs ?? RETRY_DELAYS_MS;
  const newKey = options.newKey ?? (() => crypto.randomUUID());
  return async (request) => {
    if (!isKeyedCreate(request)) return base(request);
    if (!request.headers.has('idempotency-key')) request.headers.set('idempotency-key', newKey());
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= delays.length;
      // The body can be read once: every try but the last sends a copy.
      const sent = last ? request : request.clone();
      try {
        const response = await base(sent);
        if (response.status !== 503 || last) return response;
      } catch (error) {
        if (isAbort(error) || last) throw error;
      }
      await pause(delays[attempt] ?? 0, request.signal);
    }
  };
}
