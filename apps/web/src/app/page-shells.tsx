/**
 * The static first paint of the pages that need no data: the web build (apps/web/route-preloads.ts)
 * renders them here, in Node, with the app's own components, and the gateway writes the route's
 * markup into the app page (`#root`, under index.html's static top bar). The browser paints it with
 * the stylesheet alone, before any script has run; the app's first render replaces it with the same
 * page (the same components, so the same words at the same place and size). Only pages whose first
 * render is the same for every visitor belong here: nothing signed in, nothing read from the server or
 * from the browser's storage.
 *
 * Never imported by the app (only the build loads it).
 */
import type { ComponentType, ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { HomePage } from '../features/info/pages/HomePage';
import { PATHS } from '../routes/paths';
import BarcodeCreatorPage from '../tools/barcode-creator/page';
import { TOOLS } from '../tools/registry';
import { ToolPage } from '../tools/ToolPage';
import { ToolsIndexPage } from '../tools/ToolsIndexPage';
import type { Tool, ToolPageProps } from '../tools/types';

/**
 * The tools whose whole first render goes into the shell, not only their header: their form at its
 * defaults, read from nothing of the browser at render (the worker, the history and the URL's settings
 * are used in effects or read as defaults here). The app's first render is the same form (boot.tsx loads
 * the page's module before it renders), so the form paints at once, at its place and size, and the app
 * takes it over (until then the form is inert: untilTheAppBoots). The form is painted at its defaults, which a
 * settings query (?type=ean13) changes: an address with a query gets the tool's other shell, its header alone
 * (`withQuery`, as the other tools' shells), so no setting is painted that the app then changes.
 */
const WHOLE: Record<string, NonNullable<Tool['page']>> = {
  'barcode-creator': untilTheAppBoots(BarcodeCreatorPage),
};

/**
 * The tool's form in the shell is inert (not focusable, not clickable, out of the accessibility tree)
 * until the app replaces it: a choice made before would be lost, so none can be made. The wrapper has
 * no box of its own (display: contents), so the form is laid out as the app lays it out.
 */
function untilTheAppBoots(Page: ComponentType<ToolPageProps>): NonNullable<Tool['page']> {
  const Inert = (props: ToolPageProps) => (
    <div className="page-shell-inert" inert style={{ display: 'contents' }}>
      <Page {...props} />
    </div>
  );
  return Inert as unknown as NonNullable<Tool['page']>;
}

export interface PageShell {
  /** A route of the router (the same pattern as the route preloads' table). */
  route: string;
  /** `<main>` as the app's layout (app/Layout.tsx) holds the page in it. */
  html: string;
  /**
   * For an address with a query, when the page reads settings from it (a whole tool's form): the page
   * without what the query may change (the tool's header; "Loading…" under it until the app renders).
   */
  withQuery?: string;
}

function shell(route: string, page: ReactElement): PageShell {
  const html = renderToStaticMarkup(
    <MemoryRouter initialEntries={[route]}>
      <main id="main" tabIndex={-1}>
        {page}
      </main>
    </MemoryRouter>,
  );
  return { route, html };
}

export function pageShells(): PageShell[] {
  return [
    shell(PATHS.root, <HomePage />),
    shell(PATHS.home, <HomePage />),
    shell(PATHS.tools, <ToolsIndexPage />),
    ...TOOLS.map((tool) => {
      const whole = WHOLE[tool.id];
      if (!whole) return shell(tool.path, <ToolPage tool={tool} />);
      return {
        ...shell(tool.path, <ToolPage tool={{ ...tool, page: whole }} />),
        withQuery: shell(tool.path, <ToolPage tool={tool} />).html,
      };
    }),
  ];
}
