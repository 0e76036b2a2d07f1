import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { build, createServer, type Alias, type Plugin, type Rolldown } from 'vite';

/**
 * One route of the app and the files its page needs beyond the entry: the page's chunk and the
 * chunks it imports (scripts), and the stylesheets Vite loads with them. Written by the build to
 * dist/route-preloads.json; the gateway's SPA fallback (apps/gateway/src/web/spa.ts) writes the
 * route's list into the app page, where the entry (src/main.tsx) preloads them with the boot chunk
 * once the page has painted, so the page's chunk downloads with the app instead of after it has
 * run; and the route's static shell, when it has one, into `#root`.
 */
export interface RoutePreload {
  /** A react-router pattern: static segments, `:param` segments, a trailing `*`. */
  route: string;
  scripts: string[];
  styles: string[];
  /** The page's static first paint (src/app/page-shells.tsx), for the pages that have one. */
  shell?: string;
  /** The first paint for an address with a query, when the page reads settings from it (the barcode creator's form). */
  shellWithQuery?: string;
}

export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/**
 * index.html as built, with the stylesheet first in its head: requested before the entry, it is all
 * the first paint waits for. The app's boot chunk is not preloaded from the head: the entry imports
 * it once the page (index.html's top bar and the route's static shell) has painted, and the
 * entry fetches them all at once then, from the list written here into the page (`#boot-files`);
 * scripts fetched before the first paint held the first paint back under Lighthouse's simulated slow
 * 4G.
 */
function startPage(html: string, bootFiles: string[]): string {
  const styles = html.match(/\s*<link rel="stylesheet"[^>]*>/g) ?? [];
  const out = styles.reduce((page, tag) => page.replace(tag, ''), html);
  const firstScript = out.indexOf('<script type="module"');
  if (firstScript < 0) return out;
  const list = `<script type="application/json" id="${BOOT_FILES_ID}">${JSON.stringify(bootFiles)}</script>`;
  return `${out.slice(0, firstScript)}${styles.map((t) => t.trim()).join('\n    ')}\n    ${list}\n    ${out.slice(firstScript)}`;
}

/**
 * The id of index.html's list of the boot's files (the boot chunk and the chunks it imports, minus the
 * entry's): the entry fetches them all at once after the first paint, then evaluates them in stages
 * (src/main.tsx).
 */
export const BOOT_FILES_ID = 'boot-files';

/**
 * The static first paint of the pages that have one (src/app/page-shells.tsx), rendered in Node
 * through a Vite server over the app's sources with the build's aliases. The session module is
 * replaced by one that throws when used (src/app/page-shells.session.ts): nothing of a visitor goes
 * into a page built for every visitor.
 */
/** Puts src/app/page-shells.session.ts in place of the session module, for a render in Node. */
function noSession(webRoot: string, standIn = 'src/app/page-shells.session.ts'): Plugin {
  const sessionModule = join(webRoot, 'src/shared/session/session.ts');
  return {
    name: 'tinkerdesk-page-shells-no-session',
    enforce: 'pre',
    async resolveId(source, importer) {
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      return resolved?.id === sessionModule ? join(webRoot, standIn) : null;
    },
  };
}

type RenderedShell = { route: string; html: string; withQuery?: string };

async function renderPageShells(webRoot: string, alias: Alias[]): Promise<RenderedShell[]> {
  const server = await createServer({
    configFile: false,
    root: webRoot,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
    resolve: { alias },
    plugins: [noSession(webRoot)],
  });
  try {
    const module = (await server.ssrLoadModule('/src/app/page-shells.tsx')) as { pageShells: () => RenderedShell[] };
    return module.pageShells();
  } finally {
    await server.close();
  }
}

/** Where the build puts the shop's shell renderer (src/app/shop-shell.tsx), for the gateway. */
export const SHOP_SHELL_FILE = 'shells/shop.mjs';
/** Where the build puts the account's shell renderer (src/app/account-shell.tsx), for the gateway. */
export const ACCOUNT_SHELL_FILE = 'shells/account.mjs';

/**
 * The renderers of the first paints the gateway makes per request, bundled for Node (the app's
 * components and sources; react, react-dom, react-router and TanStack Query from node_modules):
 * src/app/shop-shell.tsx into dist/shells/shop.mjs (a shop, from the gateway's read of it:
 * apps/gateway/src/web/shop-page.ts) with no session, and src/app/account-shell.tsx into
 * dist/shells/account.mjs (a signed-in visitor's /account, from the gateway's read of their profile:
 * apps/gateway/src/web/account-page.ts) with its own stand-in session (src/app/account-shell.session.ts).
 * Built after the app's bundle has been written (the app's build empties dist/ first).
 */
async function buildShells(webRoot: string, alias: Alias[]): Promise<void> {
  const shells = [
    { source: 'src/app/shop-shell.tsx', file: SHOP_SHELL_FILE, session: 'src/app/page-shells.session.ts' },
    { source: 'src/app/account-shell.tsx', file: ACCOUNT_SHELL_FILE, session: 'src/app/account-shell.session.ts' },
  ];
  for (const shell of shells) {
    await build({
      configFile: false,
      root: webRoot,
      logLevel: 'warn',
      resolve: { alias },
      plugins: [noSession(webRoot, shell.session)],
      build: {
        ssr: shell.source,
        outDir: join(webRoot, 'dist', dirname(shell.file)),
        emptyOutDir: false,
        copyPublicDir: false,
        sourcemap: false,
        target: 'node22',
        rolldownOptions: { output: { entryFileNames: basename(shell.file), format: 'es' } },
      },
    });
  }
}

/** `export const NAME = { key: 'value', ... }` in a source file: its string entries. */
function constObject(file: string, name: string): Record<string, string> {
  const source = readFileSync(file, 'utf8');
  const body = new RegExp(`export const ${name} = \\{([\\s\\S]*?)\\n\\}`).exec(source)?.[1];
  if (!body) throw new Error(`route preloads: no "export const ${name} = {" in ${file}`);
  return Object.fromEntries([...body.matchAll(/^\s*(\w+): '([^']*)',/gm)].map((m) => [m[1]!, m[2]!]));
}

/**
 * The table is generated, never kept by hand: the routes and their lazy imports are read from the
 * router (src/app/App.tsx: `const X = lazyPage(() => import('…'), 'X')` or through a shared loader
 * `const pages = () => import('…')`, and `{ path: PATHS.x, element: <X /> }` or `...dashboardRoutes(LIST, <X />)` over `const LIST = [PATHS.a, …]`), the route patterns'
 * values from routes/paths.ts (PATHS) and the contracts' links.ts (LINK_ROUTES), and the tool routes
 * from the tool registry's sources (each tools/<id>/meta.ts path and its page.tsx). A route whose
 * element is not a lazy page (the catch-all) has no entry; a lazy page whose route this reader cannot
 * read fails the build.
 */
export function routePreloads(webRoot: string, contractsSrc: string): Plugin {
  const appFile = join(webRoot, 'src/app/App.tsx');
  const bootFile = join(webRoot, 'src/boot.tsx');
  const toolsDir = join(webRoot, 'src/tools');
  let alias: Alias[] = [];
  return {
    name: 'tinkerdesk-route-preloads',
    apply: 'build',
    configResolved(config) {
      alias = config.resolve.alias;
    },
    // After Vite's own generateBundle steps: chunks that held only CSS are gone by then, their
    // stylesheets listed on the chunks that imported them.
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const values: Record<string, Record<string, string>> = {
          PATHS: constObject(join(webRoot, 'src/routes/paths.ts'), 'PATHS'),
          LINK_ROUTES: constObject(join(contractsSrc, 'links.ts'), 'LINK_ROUTES'),
        };
        const pathOf = (expression: string): string | undefined => {
          const literal = /^'([^']*)'$/.exec(expression);
          if (literal) return literal[1];
          const member = /^(\w+)\.(\w+)$/.exec(expression);
          if (member) return values[member[1]!]?.[member[2]!];
          const template = /^`\$\{(\w+)\.(\w+)\}([^`$]*)`$/.exec(expression);
          const base = template ? values[template[1]!]?.[template[2]!] : undefined;
          return base === undefined ? undefined : base + template![3];
        };

        // Page module (as imported) of each lazy component of the router.
        const app = readFileSync(appFile, 'utf8');
        const loaders = new Map([...app.matchAll(/const (\w+) = \(\) => import\('([^']+)'\)/g)].map((m) => [m[1]!, m[2]!]));
        const components = new Map<string, string>();
        for (const m of app.matchAll(/const (\w+) = lazyPage\(\s*(?:\(\) => import\('([^']+)'\)|(\w+))\s*,/g)) {
          const specifier = m[2] ?? loaders.get(m[3]!);
          if (specifier) components.set(m[1]!, specifier);
        }
        // Routes as `{ path: X, element: <Page /> }`, and the dashboards' `...dashboardRoutes(NAME, <Page />)`
        // over `const NAME = [PATHS.a, PATHS.b, …]`.
        const pathLists = new Map(
          [...app.matchAll(/const (\w+) = \[([^\]]*)\]/g)].map((m) => [
            m[1]!,
            m[2]!
              .split(',')
              .map((e) => e.trim())
              .filter(Boolean),
          ]),
        );
        const routed: Array<{ expression: string; component: string }> = [
          ...[...app.matchAll(/\{\s*path: ([^,]+?),\s*element: <(\w+)\b[^>]*\/>\s*\}/g)].map((m) => ({
            expression: m[1]!.trim(),
            component: m[2]!,
          })),
          ...[...app.matchAll(/\.\.\.\w+\((\w+), <(\w+)\b[^>]*\/>\)/g)].flatMap((m) =>
            (pathLists.get(m[1]!) ?? [`<no list ${m[1]}>`]).map((expression) => ({ expression, component: m[2]! })),
          ),
        ];
        const wanted: Array<{ route: string; module: string }> = [];
        for (const { expression, component } of routed) {
          const specifier = components.get(component);
          if (!specifier) continue; // not a lazy page (the tools' catch-all)
          const route = pathOf(expression);
          const resolved = await this.resolve(specifier, appFile);
          if (route === undefined || !resolved) {
            this.error(
              `route preloads: cannot read the route of <${component} /> (path: ${expression}): write it as the router's other routes`,
            );
          }
          wanted.push({ route, module: resolved.id });
        }
        // Every lazy page of the router is reached by some route this reader understood: a route written in
        // another form fails the build instead of silently losing its preload.
        const routedComponents = new Set(routed.map((r) => r.component));
        const unread = [...components.keys()].filter((c) => !routedComponents.has(c) && app.includes(`<${c}`));
        if (unread.length > 0) this.error(`route preloads: no route read for ${unread.join(', ')} in src/app/App.tsx`);
        for (const id of readdirSync(toolsDir)) {
          const page = join(toolsDir, id, 'page.tsx');
          const meta = join(toolsDir, id, 'meta.ts');
          if (!existsSync(page) || !existsSync(meta)) continue;
          const route = /\bpath: '([^']+)'/.exec(readFileSync(meta, 'utf8'))?.[1];
          if (route) wanted.push({ route, module: page });
          else this.warn(`route preloads: no path in ${meta}`);
        }
        if (wanted.length === 0) this.error('route preloads: no route found in src/app/App.tsx');

        const chunks = Object.values(bundle).filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
        const byName = new Map(chunks.map((c) => [c.fileName, c]));
        /** A chunk and every chunk it imports statically. */
        const closure = (start: Rolldown.OutputChunk, into = new Set<Rolldown.OutputChunk>()) => {
          if (into.has(start)) return into;
          into.add(start);
          for (const name of start.imports) {
            const next = byName.get(name);
            if (next) closure(next, into);
          }
          return into;
        };
        // The entry's own files are in index.html already; the app's boot chunk (src/boot.tsx, which the
        // entry imports once the first paint is done, its imports fetched with it) is no route's to fetch.
        const loaded = new Set<Rolldown.OutputChunk>();
        for (const entry of chunks.filter((c) => c.isEntry)) closure(entry, loaded);
        const boot = chunks.find((c) => c.facadeModuleId === bootFile) ?? chunks.find((c) => c.moduleIds.includes(bootFile));
        if (!boot) return this.error(`route preloads: no chunk for ${bootFile}`);
        const entryFiles = new Set(loaded);
        closure(boot, loaded);
        const page = bundle['index.html'];
        if (page?.type !== 'asset' || typeof page.source !== 'string') return this.error('route preloads: no index.html in the bundle');
        const bootFiles = [...closure(boot)].filter((c) => !entryFiles.has(c)).map((c) => `/${c.fileName}`);
        page.source = startPage(page.source, bootFiles);

        const table: RoutePreload[] = [];
        for (const { route, module } of wanted) {
          const chunk = chunks.find((c) => c.facadeModuleId === module) ?? chunks.find((c) => c.moduleIds.includes(module));
          if (!chunk) {
            this.warn(`route preloads: no chunk holds ${module} (${route})`);
            continue;
          }
          const needed = [...closure(chunk)].filter((c) => !loaded.has(c));
          table.push({
            route,
            scripts: needed.map((c) => `/${c.fileName}`),
            styles: [...new Set(needed.flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]))].map((f) => `/${f}`),
          });
        }
        for (const { route, html, withQuery } of await renderPageShells(webRoot, alias)) {
          let entry = table.find((e) => e.route === route);
          if (!entry) table.push((entry = { route, scripts: [], styles: [] }));
          entry.shell = html;
          if (withQuery !== undefined) entry.shellWithQuery = withQuery;
        }
        this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: `${JSON.stringify(table, null, 2)}\n` });
      },
    },
    closeBundle: {
      sequential: true,
      async handler() {
        await buildShells(webRoot, alias);
      },
    },
  };
}
