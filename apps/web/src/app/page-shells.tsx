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
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { HomePage } from '../features/info/pages/HomePage';
import { PATHS } from '../routes/paths';
import { TOOLS } from '../tools/registry';
import { ToolPage } from '../tools/ToolPage';
import { ToolsIndexPage } from '../tools/ToolsIndexPage';

export interface PageShell {
  /** A route of the router (the same pattern as the route preloads' table). */
  route: string;
  /** `<main>` as the app's layout (app/Layout.tsx) holds the page in it. */
  html: string;
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
    ...TOOLS.map((tool) => shell(tool.path, <ToolPage tool={tool} />)),
  ];
}
