/**
 * A shop's public read asked for by the entry (main.tsx) before the app's scripts have downloaded:
 * on a storefront (/shop/{guid}/{serviceId}) or a shop's short link (/s/{slug}), the storefront's
 * GET is sent at once instead of after the app has booted, and the page's first read of it
 * (features/commerce/api.ts) takes that answer. The shop's content, its largest paint, waited for the
 * boot's download and evaluation and then one more round trip. Part of the entry chunk: keep it tiny
 * and dependency-free (the routes are the contracts' LINK_ROUTES.storefront and .shop; a unit spec
 * checks they agree).
 */
const STOREFRONT = /^\/shop\/([^/]+)\/([^/]+)\/?$/;
const SHOP = /^\/s\/([^/]+)\/?$/;

let early: { path: string; response: Promise<Response> } | undefined;

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
