/**
 * A shop's first paint, rendered by the gateway for each request from its own read of the shop
 * (apps/gateway/src/web/shop-page.ts), with the app's own components: the storefront as the shop's
 * page shows it (src/features/commerce/pages/StorefrontPage.tsx), or the page's own not-found wording.
 * React escapes every text; what is rendered is the shop's public read (GET /v1/users/{guid}/services/{sid}),
 * the same answer anyone gets from the API, inlined beside the shell so the app starts from it.
 *
 * The web build bundles this module for Node (dist/shells/shop.mjs: `buildShopShell` in
 * apps/web/route-preloads.ts); the app never imports it. The session is the build's stand-in
 * (page-shells.session.ts): a shop's first render reads no session.
 */
import type { StorefrontView } from '@tinkerdesk/contracts/web';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { ShopLinkNotFound, Storefront, StorefrontNotFound } from '../features/commerce/pages/StorefrontPage';
import { InShell } from '../shared/shell';

export type ShopShellInput =
  { kind: 'storefront' | 'shop'; path: string; shop: StorefrontView } | { kind: 'storefront' | 'shop'; path: string; notFound: true };

/** `<main>` as the app's layout (app/Layout.tsx) holds the shop's page in it. */
export function renderShopShell(input: ShopShellInput): string {
  const page =
    'shop' in input ? (
      <Storefront shop={input.shop} error={undefined} />
    ) : input.kind === 'shop' ? (
      <ShopLinkNotFound />
    ) : (
      <StorefrontNotFound />
    );
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={[input.path]}>
      <InShell.Provider value={true}>
        <main id="main" tabIndex={-1}>
          {page}
        </main>
      </InShell.Provider>
    </MemoryRouter>,
  );
}
