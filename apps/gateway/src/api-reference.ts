import type { Express, Request, Response } from 'express';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Where the browsable reference is; the document it reads is JSON_PATH. */
export const DOCS_PATH = '/v1/docs';
const JSON_PATH = '/v1/openapi.json';

/**
 * Scalar's configuration (https://scalar.com, `@scalar/api-reference`): everything that would call out
 * of the site is off — its hosted fonts, telemetry, the AI agent, the MCP button, "open in the API
 * client" (client.scalar.com), the developer toolbar — and the "try it" requests go straight to this
 * origin (`proxyUrl: ''`: left undefined, Scalar sends them through proxy.scalar.com).
 */
export const SCALAR_CONFIGURATION = {
  url: JSON_PATH,
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  hideClientButton: true,
  showDeveloperTools: 'never',
  proxyUrl: '',
  documentDownloadType: 'json',
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
  theme: 'default',
  metaData: { title: 'Tinkerdesk API' },
} as const;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Tinkerdesk API</title>
    <link rel="icon" type="image/svg+xml" href="/logo.svg" />
  </head>
  <body>
    <div id="tinkerdesk-api-reference"></div>
    <script id="tinkerdesk-api-reference-configuration" type="application/json">${JSON.stringify(SCALAR_CONFIGURATION)}</script>
    <script src="${DOCS_PATH}/scalar.js"></script>
    <script src="${DOCS_PATH}/start.js"></script>
  </body>
</html>
`;

/**
 * Read the configuration from the page (data, not code: the page's CSP runs no inline script). The
 * mount point is not `#api-reference`: Scalar's bundle mounts a second reference, with its defaults, on
 * an element of that id by itself.
 */
const START = `Scalar.createApiReference('#tinkerdesk-api-reference', JSON.parse(document.getElementById('tinkerdesk-api-reference-configuration').textContent));\n`;

/** Scalar's self-contained browser build, shipped in the npm package: nothing loads from a CDN. */
function scalarBundle(): { plain: Buffer; gzip: Buffer } {
  const entry = createRequire(import.meta.url).resolve('@scalar/api-reference');
  // dist/index.js → dist/browser/standalone.js
  const plain = readFileSync(join(dirname(entry), 'browser', 'standalone.js'));
  return { plain, gzip: gzipSync(plain, { level: 9 }) };
}

function acceptsGzip(req: Request): boolean {
  return /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
}

/**
 * The browsable API reference at /v1/docs (Scalar, from the gateway itself): the page, Scalar's bundle
 * (read and gzipped once, on the first request) and the line that starts it on /v1/openapi.json.
 */
export function mountApiReference(app: Express): void {
  let bundle: { plain: Buffer; gzip: Buffer } | undefined;
  const page = (_req: Request, res: Response): void => {
    res.setHeader('cache-control', 'no-cache');
    res.type('html').send(PAGE);
  };
  app.get(DOCS_PATH, page);
  app.get(`${DOCS_PATH}/`, page);
  app.get(`${DOCS_PATH}/scalar.js`, (req: Request, res: Response) => {
    bundle ??= scalarBundle();
    const gzip = acceptsGzip(req);
    res.setHeader('cache-control', 'no-cache');
    res.setHeader('vary', 'accept-encoding');
    res.type('js');
    if (gzip) res.setHeader('content-encoding', 'gzip');
    res.send(gzip ? bundle.gzip : bundle.plain);
  });
  app.get(`${DOCS_PATH}/start.js`, (_req: Request, res: Response) => {
    res.setHeader('cache-control', 'no-cache');
    res.type('js').send(START);
  });
}
