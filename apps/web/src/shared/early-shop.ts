/**
 * A shop's public read asked for by the entry (main.tsx) before the app's scripts have downloaded:
 * on a storefront (/shop/{guid}/{serviceId}) or a shop's short link (/s/{slug}), the storefront's
 * GET is sent at once instead of after the app has booted, and the page's first read of it
 * (features/commerce/api.ts) takes that answer. The shop's content, its largest paint, waited for the
 * boot's download and evaluation and then one more round trip. Part of the entry chunk: keep it tiny
 * and dependency-free (the routes are the contracts' LINK_ROUTES.storefront and .shop; a unit spec
 * checks they agree).
 */
import { answered, inlineJson } from './inline-answer';

const STOREFRONT = /^\/shop\/([^/]+)\/([^/]+)\/?$/;
const SHOP = /^\/s\/([^/]+)\/?$/;

let early: { path: string; response: Promise<Response> } | undefined;

/**
 * The id of the shop's answer the gateway writes into a shop's page with its shell
 * (apps/gateway/src/web/shop-page.ts): `{"read": "/v1/…", "status": 200 | 404, "body": {…}, "at": ms}`,
 * the answer of that read as the API gives it, when the page was made.
 */
export const SHOP_ANSWER_ID = 'shop-answer';

interface InlineAnswer {
  read: string;
  status: number;
  body: unknown;
  at: number;
}

let inline: InlineAnswer | null | undefined;

/** The page's inline answer of a shop's read, read once from the page (none: null). */
function inlineAnswer(): InlineAnswer | null {
  if (inline !== undefined) return inline;
  inline = null;
  // A page without a usable answer reads the shop itself.
  const value = (inlineJson(SHOP_ANSWER_ID) ?? {}) as Partial<InlineAnswer>;
  if (typeof value.read === 'string' && typeof value.status === 'number' && typeof value.at === 'number' && value.body) {
    inline = { read: value.read, status: value.status, body: value.body, at: value.at };
  }
  return inline;
}

/**
 * What the page already holds of this read (`/v1/users/{guid}/services/{sid}` or `/v1/shops/{slug}`):
 * the shop (the answer without `success`) and when it was read, or that there is no such shop. The
 * shop's page starts with it, so its first render is the shop the shell showed, without a read.
 */
export function inlineShop<T>(read: string): { shop: T; at: number } | { notFound: true } | undefined {
  const answer = inlineAnswer();
  if (!answer || answer.read !== read) return undefined;
  if (answer.status === 404) return { notFound: true };
  if (answer.status !== 200) return undefined;
  const { success: _ok, ...shop } = answer.body as { success?: unknown };
  return { shop: shop as T, at: answer.at };
}

/** The read a storefront path opens with (`/v1/users/{guid}/services/{sid}` or `/v1/shops/{slug}`), if it is one. */
export function shopReadFor(pathname: string): string | undefined {
  const storefront = STOREFRONT.exec(pathname);
  if (storefront) return `/v1/users/${storefront[1]}/services/${storefront[2]}`;
  const shop = SHOP.exec(pathname);
  return shop ? `/v1/shops/${shop[1]}` : undefined;
}

/** Sends the shop's read now when the page being opened is a shop (once per page). */
export function requestShopEarly(pathname: string): void {
  const path = shopReadFor(pathname);
  if (!path || early) return;
  // The gateway sent the answer with the page: the page's first read takes it, nothing is fetched.
  const answer = inlineAnswer();
  if (answer?.read === path) {
    early = { path, response: answered(answer.status, answer.body) };
    return;
  }
  // A failure is the page's to see (its query reports or retries it), so none is reported here.
  const response = fetch(path);
  response.catch(() => undefined);
  early = { path, response };
}

/**
 * The early answer for this request, once: when it is the same anonymous GET (path and query) that was
 * sent early; otherwise (or the second time) none, and the caller fetches as usual.
 */
export function takeEarlyShop(request: Request): Promise<Response> | undefined {
  if (!early || request.method !== 'GET' || request.headers.has('authorization')) return undefined;
  const url = new URL(request.url);
  if (url.pathname + url.search !== early.path) return undefined;
  const { response } = early;
  early = undefined;
  return response;
}
