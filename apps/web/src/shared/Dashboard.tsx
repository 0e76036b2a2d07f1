import { Suspense, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { matchDashboard, ROUTE_FOCUS_ATTRIBUTE, type DashboardRoute } from './dashboard-routes';
import { Page } from './Page';

/** A section of a dashboard: its route (shared/dashboard-routes.ts) and what it shows. */
export interface DashboardSection extends DashboardRoute {
  render: () => ReactNode;
}

/**
 * A page of sections with a section menu (a side menu on a wide screen, a scrollable strip of tabs on a
 * phone) and one section shown per route (docs/web-app.md#dashboards). Only the shown section is
 * rendered, so only it fetches. After a move to another section the layout focuses the section's first
 * h2, so keyboard and screen-reader users land in its content. The document's title is
 * "{section} · {title}".
 */
export function Dashboard({
  title,
  menuLabel,
  base,
  sections,
  before,
  after,
}: {
  title: string;
  /** The menu's accessible name, e.g. "Account sections". */
  menuLabel: string;
  /** The dashboard's own path, e.g. /account. */
  base: string;
  sections: readonly [DashboardSection, ...DashboardSection[]];
  /** Shown above the menu and section on every route (notices, one-off effects). */
  before?: ReactNode;
  /** Shown below them on every route. */
  after?: ReactNode;
}) {
  const { pathname, hash, search } = useLocation();
  const match = matchDashboard(sections, base, pathname, hash, search);
  const current = match.kind === 'section' ? match.section : null;
  const content = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLUListElement>(null);

  // Before the layout's focus effect runs (effects run child first; layout effects before all of them).
  useLayoutEffect(() => {
    const heading = content.current?.querySelector<HTMLElement>('h2');
    if (!heading) return;
    heading.setAttribute(ROUTE_FOCUS_ATTRIBUTE, '');
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  });

  // The strip of tabs (a phone) scrolls so the current tab is in view. Measured in the next frame, when
  // the browser lays the page out anyway, rather than right after React's commit, where reading the
  // sizes made the browser lay out the new page inside the commit's task.
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const list = menu.current;
      const tab = list?.querySelector<HTMLElement>('[aria-current="page"]');
      if (!list || !tab || list.scrollWidth <= list.clientWidth) return;
      list.scrollLeft = tab.offsetLeft - (list.clientWidth - tab.offsetWidth) / 2;
    });
    return () => cancelAnimationFrame(frame);
  }, [current]);

  if (match.kind === 'redirect') return <Navigate to={match.to} replace />;
  const shown = match.section;
  return (
    <Page title={title} documentTitle={`${shown.label} · ${title}`} wide>
      {before}
      <div className="dashboard">
        <nav className="dashboard-menu" aria-label={menuLabel}>
          <ul ref={menu}>
            {sections.map((section) => (
              <li key={section.path}>
                <Link to={section.path} aria-current={section === shown ? 'page' : undefined}>
                  {section.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="dashboard-section" ref={content}>
          {/* A section whose code is its own chunk (loaded on its first visit) shows a card of reserved height meanwhile. */}
          <Suspense fallback={<SectionLoading />}>{shown.render()}</Suspense>
        </div>
      </div>
      {after}
    </Page>
  );
}

/** The place of a section whose chunk is loading: an empty card of a section's usual height, so nothing moves when it arrives. */
function SectionLoading() {
  return (
    <div className="card account-card section-loading" role="status">
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}
