/**
 * A signed-in visitor's first paint of /account (and /account/profile), rendered by the gateway for
 * each request from its own read of the visitor's profile (apps/gateway/src/web/account-page.ts), with
 * the app's own components: the account's dashboard as the app's first render shows it, all of it inert
 * until the app takes it over (a name typed or a button pressed before would be lost; a section's link
 * followed then would load the whole site again, and the focus a keyboard user had would be lost when the
 * app replaces the page). React escapes every text; what is rendered is the
 * visitor's own GET /v1/users/me?include=services, inlined beside the shell so the app starts from it.
 *
 * The web build bundles this module for Node (dist/shells/account.mjs: `buildShells` in
 * apps/web/route-preloads.ts), with account-shell.session.ts as the session; the app never imports it.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { AccountDashboard } from '../features/account/pages/AccountPages';
import type { Profile } from '../shared/session/types';
import { InShell } from '../shared/shell';
import { showProfile } from './account-shell.session';

export interface AccountShellInput {
  /** The page's path: /account or /account/profile. */
  path: string;
  profile: Profile;
}

/** `<main>` as the app's layout (app/Layout.tsx) holds the account's page in it. */
export function renderAccountShell(input: AccountShellInput): string {
  showProfile(input.profile);
  try {
    return renderToStaticMarkup(
      <MemoryRouter initialEntries={[input.path]}>
        <QueryClientProvider client={new QueryClient()}>
          <InShell.Provider value={true}>
            <main id="main" tabIndex={-1}>
              {/* No box of its own: the page is laid out as the app lays it out. */}
              <div className="page-shell-inert" inert style={{ display: 'contents' }}>
                <AccountDashboard />
              </div>
            </main>
          </InShell.Provider>
        </QueryClientProvider>
      </MemoryRouter>,
    );
  } finally {
    showProfile(null);
  }
}
