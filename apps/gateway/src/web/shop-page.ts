import { AppError, type StorefrontView } from '@tinkerdesk/contracts';
import { jsonScript } from './app-page.js';
import { beforeDeadline, BuiltRenderer } from './built-renderer.js';

/**
 * A shop's page (/shop/{guid}/{serviceId}, /s/{slug}) as the gateway sends it: the app page with the
 * shop painted in it from the gateway's own read of the shop, and that read's answer inlined for the
 * app (docs/web-app.md, "A shop's first paint").
 */

/** The shop a page path names, and the API read of it (the path the app's first read asks for). */
export type ShopPath =
  { kind: 'storefront'; userId: string; serviceId: string; read: string } | { kind: 'shop'; slug: string; read: string };

const STOREFRONT = /^\/shop\/([^/]+)\/([^/]+)\/?$/;
const SHOP = /^\/s\/([^/]+)\/?$/;
/** As the API's own check of these parameters (ProductsParamsDto: UUID version 4). */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const SLUG_MAX = 200;

const decoded = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
};

/**
 * The shop of a page path (the contracts' LINK_ROUTES.storefront and .shop), when its parameters are
 * ones the API would read; otherwise none (the page is sent without a shop, and the app answers).
 */
export function shopPath(path: string): ShopPath | undefined {
  const storefront = STOREFRONT.exec(path);
  if (storefront) {
    const [userId, serviceId] = [decoded(storefront[1]!), decoded(storefront[2]!)];
    if (!userId || !serviceId || !UUID_V4.test(userId) || !UUID_V4.test(serviceId)) return undefined;
    return {
      kind: 'storefront',
      userId,
      serviceId,
      read: `/v1/users/${encodeURIComponent(userId)}/services/${encodeURIComponent(serviceId)}`,
    };
  }
  const shop = SHOP.exec(path);
  const slug = shop ? decoded(shop[1]!) : undefined;
  if (!slug || slug.length > SLUG_MAX) return undefined;
  return { kind: 'shop', slug, read: `/v1/shops/${encodeURIComponent(slug)}` };
}

/** Reads a shop as the API's public read does (throws AppError NOT_FOUND for no such shop). */
export type ShopReader = (address: ShopPath) => Promise<StorefrontView>;

/** The read's answer as the API would give it: the shop, or that there is none. */
export type ShopAnswer =
  { status: 200; body: { success: true } & StorefrontView } | { status: 404; body: { success: false; error: 'NOT_FOUND'; detail: string } };

/**
 * The shop's answer, or none when the read failed otherwise or took longer than `timeoutMs` (the page
 * is then sent without a shop and the app reads it itself, showing what it shows for that failure).
 */
export async function readShopAnswer(address: ShopPath, read: ShopReader, timeoutMs: number): Promise<ShopAnswer | undefined> {
  try {
    const shop = await beforeDeadline(read(address), timeoutMs);
    return shop ? { status: 200, body: { success: true, ...shop } } : undefined;
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') {
      return { status: 404, body: { success: false, error: 'NOT_FOUND', detail: error.detail } };
    }
    return undefined;
  }
}

/** The id the app reads the answer by (apps/web/src/shared/early-shop.ts, SHOP_ANSWER_ID). */
export const SHOP_ANSWER_ID = 'shop-answer';

/**
 * The answer as JSON in the page (`<script type="application/json">`, never run), with the read it
 * answers and when it was read; `<`, U+2028 and U+2029 escaped, so no text of the shop can end the element.
 */
export function shopAnswerScript(address: ShopPath, answer: ShopAnswer, at: number): string {
  return jsonScript(SHOP_ANSWER_ID, { read: address.read, status: answer.status, body: answer.body, at });
}

/** The web build's renderer (apps/web/src/app/shop-shell.tsx, built to dist/shells/shop.mjs). */
type ShellInput = { kind: 'storefront' | 'shop'; path: string } & ({ shop: StorefrontView } | { notFound: true });
interface ShellRenderer {
  renderShopShell(input: ShellInput): string;
}

/** The shop's first paint (`<main>` and the page), rendered with the app's components from the answer. */
export class ShopShells {
  private readonly renderer: BuiltRenderer<ShellRenderer>;

  constructor(root: string) {
    this.renderer = new BuiltRenderer(root, 'shells/shop.mjs');
  }

  /** None when the build has no renderer (the page is then sent without a shop). */
  async render(path: string, address: ShopPath, answer: ShopAnswer): Promise<string | undefined> {
    const renderer = await this.renderer.load();
    if (!renderer) return undefined;
    if (answer.status === 404) return renderer.renderShopShell({ kind: address.kind, path, notFound: true });
    const { success: _ok, ...shop } = answer.body;
    return renderer.renderShopShell({ kind: address.kind, path, shop });
  }
}
