import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppError } from '@tinkerdesk/contracts';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllowedHosts, safeFetch, type FetchPolicy, type Resolver } from './safe-fetch.js';

/** A loopback HTTP server that records every request it receives. */
let server: Server;
let port: number;
const seen: IncomingMessage[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req);
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to) {
      res.writeHead(302, { location: to }).end();
    } else if (url.pathname === '/loop') {
      res.writeHead(301, { location: '/loop' }).end();
    } else if (url.pathname === '/big') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.alloc(4096, 1));
    } else if (url.pathname === '/stream') {
      // no Content-Length: the bound must hold while the body streams
      res.writeHead(200, { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' });
      const timer = setInterval(() => res.write('x'.repeat(512)), 5);
      res.on('close', () => clearInterval(timer));
    } else if (url.pathname === '/slow') {
      setTimeout(() => res.end('late'), 2000).unref();
    } else if (url.pathname === '/missing') {
      res.writeHead(404, 'Not Found').end('no');
    } else if (url.pathname === '/report.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf` });
      res.end('%PDF-1.7');
    } else {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(JSON.stringify({ path: url.pathname, auth: req.headers.authorization ?? null, encoding: req.headers['accept-encoding'] }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const policy = (extra: Partial<FetchPolicy> = {}): FetchPolicy => ({
  allowedHosts: new Set<string>(),
  maxBytes: 1024 * 1024,
  timeoutMs: 3000,
  maxRedirects: 5,
  ...extra,
});
const allowLoopback = (extra: Partial<FetchPolicy> = {}) => policy({ allowedHosts: new Set(['127.0.0.1']), ...extra });

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the fetch to fail');
}

describe('safeFetch refuses inside addresses in every spelling, before connecting', () => {
  it.each([
    'http://127.0.0.1:PORT/',
    'http://2130706433:PORT/',
    'http://0x7f000001:PORT/',
    'http://017700000001:PORT/',
    'http://0177.0.0.1:PORT/',
    'http://0x7f.0.0.1:PORT/',
    'http://127.1:PORT/',
    'http://[::ffff:127.0.0.1]:PORT/',
    'http://[::1]:PORT/',
    'http://[0:0:0:0:0:ffff:7f00:1]:PORT/',
    'http://[::7f00:1]:PORT/',
    'https://[::a9fe:a9fe]/',
    'http://[64:ff9b::7f00:1]:PORT/',
    'http://0.0.0.0:PORT/',
    'http://169.254.169.254/latest/meta-data/',
    'http://localhost:PORT/',
    'http://LOCALHOST.:PORT/',
    'http://app.localhost:PORT/',
  ])('%s', async (spelling) => {
    const before = seen.length;
    const error = await failure(safeFetch(spelling.replace('PORT', String(port)), policy()));
    expect(error.code).toBe('URL_NOT_ALLOWED');
    expect(seen.length).toBe(before);
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/a', 'gopher://127.0.0.1:70/', 'data:text/plain,hi', 'javascript:alert(1)'])(
    'refuses the scheme of %s',
    async (url) => {
      const error = await failure(safeFetch(url, policy()));
      expect(error.code).toBe('URL_NOT_ALLOWED');
      expect(error.detail).toMatch(/only http and https/);
    },
  );

  it('refuses credentials in the URL and answers VALIDATION_FAILED for what is not a URL', async () => {
    expect((await failure(safeFetch(`http://user:pw@127.0.0.1:${port}/`, allowLoopback()))).code).toBe('URL_NOT_ALLOWED');
    expect((await failure(safeFetch('not a url', policy()))).code).toBe('VALIDATION_FAILED');
  });

  it('refuses a name with any inside address among its addresses', async () => {
    const resolve: Resolver = () =>
      Promise.resolve([
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ]);
    const error = await failure(safeFetch('http://mixed.example/', policy({ resolve })));
    expect(error.code).toBe('URL_NOT_ALLOWED');
    expect(error.detail).toContain('10.0.0.5 is a private address');
  });
});

describe('safeFetch on the allow-list', () => {
  it('fetches from an allowed host, with the caller’s headers and no compression', async () => {
    const got = await safeFetch(`http://127.0.0.1:${port}/hello.txt`, allowLoopback(), {
      headers: { Authorization: 'Bearer abc', Host: 'evil.example', 'Accept-Encoding': 'gzip' },
    });
    expect(got.status).toBe(200);
    expect(got.contentType).toBe('text/plain; charset=utf-8');
    expect(got.filename).toBe('hello.txt');
    expect(JSON.parse(got.body.toString())).toEqual({ path: '/hello.txt', auth: 'Bearer abc', encoding: 'identity' });
    expect(got.size).toBe(got.body.length);
  });

  it('connects to the address resolved once (no second lookup): a name only the resolver knows', async () => {
    let calls = 0;
    const resolve: Resolver = () => {
      calls++;
      return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    };
    const got = await safeFetch(
      `http://files.intranet.test:${port}/x`,
      policy({ allowedHosts: new Set(['files.intranet.test']), resolve }),
    );
    expect(JSON.parse(got.body.toString()).path).toBe('/x');
    expect(calls).toBe(1);
  });

  it('is not fooled by a name whose next answer differs (DNS rebinding): the first answer is the one used', async () => {
    // The server listens on 127.0.0.1 only; a second lookup would get 127.0.0.2 and be refused.
    const answers = ['127.0.0.1', '127.0.0.2'];
    const resolve: Resolver = () => Promise.resolve([{ address: answers.shift() ?? '127.0.0.2', family: 4 }]);
    const got = await safeFetch(`http://rebind.test:${port}/pinned`, policy({ allowedHosts: new Set(['rebind.test']), resolve }));
    expect(JSON.parse(got.body.toString()).path).toBe('/pinned');
    expect(answers).toEqual(['127.0.0.2']);
  });

  it('checks every redirect again', async () => {
    const to = encodeURIComponent(`http://[::1]:${port}/secret`);
    const error = await failure(safeFetch(`http://127.0.0.1:${port}/redirect?to=${to}`, allowLoopback()));
    expect(error.code).toBe('URL_NOT_ALLOWED');
    expect(error.detail).toContain('loopback');
    const ok = await safeFetch(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent('/final.txt')}`, allowLoopback());
    expect(ok.url).toBe(`http://127.0.0.1:${port}/final.txt`);
  });

  it('follows at most maxRedirects redirects', async () => {
    const error = await failure(safeFetch(`http://127.0.0.1:${port}/loop`, allowLoopback({ maxRedirects: 3 })));
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.detail).toBe('more than 3 redirects');
  });

  it('bounds the size, declared or streamed, and the time', async () => {
    expect((await failure(safeFetch(`http://127.0.0.1:${port}/big`, allowLoopback({ maxBytes: 1000 })))).code).toBe('PAYLOAD_TOO_LARGE');
    expect((await failure(safeFetch(`http://127.0.0.1:${port}/stream`, allowLoopback({ maxBytes: 4000 })))).code).toBe('PAYLOAD_TOO_LARGE');
    const slow = await failure(safeFetch(`http://127.0.0.1:${port}/slow`, allowLoopback({ timeoutMs: 300 })));
    expect(slow.code).toBe('UNAVAILABLE');
    expect(slow.detail).toContain('within 300 ms');
  });

  it('reports the server’s error status, and names files from Content-Disposition', async () => {
    const missing = await failure(safeFetch(`http://127.0.0.1:${port}/missing`, allowLoopback()));
    expect(missing.code).toBe('UPSTREAM_ERROR');
    expect(missing.detail).toBe(`127.0.0.1:${port} answered 404 Not Found`);
    const pdf = await safeFetch(`http://127.0.0.1:${port}/report.pdf`, allowLoopback());
    expect(pdf.filename).toBe('résumé.pdf');
    expect(pdf.contentType).toBe('application/pdf');
  });

  it('refuses malformed or too many headers', async () => {
    expect((await failure(safeFetch(`http://127.0.0.1:${port}/`, allowLoopback(), { headers: { 'x-a': 'b\r\nx-b: c' } }))).code).toBe(
      'VALIDATION_FAILED',
    );
    expect((await failure(safeFetch(`http://127.0.0.1:${port}/`, allowLoopback(), { headers: { 'bad name': 'x' } }))).code).toBe(
      'VALIDATION_FAILED',
    );
    const many = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`x-h${i}`, 'v']));
    expect((await failure(safeFetch(`http://127.0.0.1:${port}/`, allowLoopback(), { headers: many }))).code).toBe('VALIDATION_FAILED');
  });
});

describe('parseAllowedHosts', () => {
  it('reads comma- or space-separated names, case-insensitively, IPv6 with or without brackets', () => {
    expect([...parseAllowedHosts(' Files.Intranet, 127.0.0.1  [::1] ')]).toEqual(['files.intranet', '127.0.0.1', '::1']);
    expect(parseAllowedHosts(undefined).size).toBe(0);
  });
});
