import { Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { useHashEntry } from '../features/auth/use-hash-entry';
import { usePaymentAlerts } from '../features/commerce/hooks/usePaymentAlerts';
import { useTerminalMessages } from '../features/terminals/hooks/useTerminalMessages';
import { ROUTE_FOCUS_ATTRIBUTE } from '../shared/dashboard-routes';
import { PageLoading } from '../shared/PageLoading';
import { ErrorBoundary } from './ErrorBoundary';
import { Footer } from './Footer';
import { Notifications } from './Notifications';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';

export function Layout() {
  const location = useLocation();
  // The sidebar is open only for the location it was opened at: any navigation closes it.
  const [sidebarOpenAt, setSidebarOpenAt] = useState<string | null>(null);
  const sidebarOpen = sidebarOpenAt === location.key;
  useFocusOnNavigation(location.pathname);

  return (
    <>
      <AppWatchers />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TopBar sidebarOpen={sidebarOpen} onToggleSidebar={() => setSidebarOpenAt(sidebarOpen ? null : location.key)} />
      <Sidebar open={sidebarOpen} onClose={() => setSidebarOpenAt(null)} />
      <main id="main" tabIndex={-1}>
        <ErrorBoundary resetKey={location.pathname}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
      <Notifications />
      <ScrollRestoration />
    </>
  );
}

/**
 * What the app watches on every page (a sign-in link in the address, payment alerts, terminal
 * messages), in a component of its own: the session changes it follows (the startup check, a sign-in)
 * re-render it alone, not the layout and the page under it.
 */
function AppWatchers() {
  useHashEntry();
  usePaymentAlerts();
  useTerminalMessages();
  return null;
}

/**
 * After a client-side navigation to another page, move focus to the new page's heading so keyboard
 * and screen-reader users start at the content (not on the first load: the skip link comes first).
 * A dashboard's section names its own heading (ROUTE_FOCUS_ATTRIBUTE), which comes before the h1.
 */
function useFocusOnNavigation(pathname: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading =
      document.querySelector<HTMLElement>(`main [${ROUTE_FOCUS_ATTRIBUTE}]`) ??
      document.querySelector<HTMLElement>('main h1') ??
      document.getElementById('main');
    if (!heading) return;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  }, [pathname]);
}
