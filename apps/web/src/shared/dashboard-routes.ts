/**
 * The routing of a dashboard (a page with a section menu and one section per route: /account, /billing;
 * docs/web-app.md#routes). Pure: no React.
 */

/** The attribute that names the element the layout focuses after a navigation (app/Layout.tsx), instead of the h1. */
export const ROUTE_FOCUS_ATTRIBUTE = 'data-route-focus';

/** One section: its route, its menu label, and the anchors of the one long page it replaces. */
export interface DashboardRoute {
  /** Its route, e.g. /account/selling. */
  path: string;
  /** Its menu label, also the first part of the document's title ("Selling · Account"). */
  label: string;
  /** Old in-page anchors (without '#') that now lead here: /account#selling redirects to /account/selling. */
  anchors: readonly string[];
  /** Hash routes shown in place at the dashboard's own path (/account/#/terminals/{id}/inbox): the address stays as it is. */
  hashRoute?: RegExp;
}

export type DashboardMatch<S extends DashboardRoute> = { kind: 'section'; section: S } | { kind: 'redirect'; to: string };

/**
 * What `pathname` + `hash` show on the dashboard at `base`: its own path shows the first section (or the
 * section whose hash route the hash is), or redirects an old anchor to its section's route (keeping the
 * query); a section's route shows it. Anything else shows the first section (the router sends unknown
 * paths to the 404 page before they get here).
 */
export function matchDashboard<S extends DashboardRoute>(
  sections: readonly [S, ...S[]],
  base: string,
  pathname: string,
  hash: string,
  search = '',
): DashboardMatch<S> {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === base) {
    const anchor = decodeURIComponent(hash.replace(/^#/, ''));
    const anchored = anchor ? sections.find((s) => s.anchors.includes(anchor)) : undefined;
    if (anchored) return { kind: 'redirect', to: `${anchored.path}${search}` };
    const routed = hash ? sections.find((s) => s.hashRoute?.test(hash)) : undefined;
    return { kind: 'section', section: routed ?? sections[0] };
  }
  return { kind: 'section', section: sections.find((s) => s.path === path) ?? sections[0] };
}
