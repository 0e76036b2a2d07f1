import { expect, test, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signInContext, watchErrors } from './helpers.js';

/**
 * "Load from URL" in the browser tools: the server fetches the URL (POST /v1/users/{guid}/fetch) and
 * the tool gets it as a dropped file. A loopback site on the platform's allow-list
 * (FETCH_ALLOWED_HOSTS=127.0.0.1 in playwright.config.ts) serves the file; an address inside the
 * network is refused with the server's error and detail; signed out, the tool says 'login required'.
 */
let site: Server;
let port: number;

test.beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url === '/hello.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end('Hello from a URL');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  port = (site.address() as AddressInfo).port;
});

test.afterAll(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

async function signIn(page: Page): Promise<void> {
  const email = `load-url-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const { token } = (await (await page.request.post('/v1/users', { data: { email, password: 'loading from a url' } })).json()) as {
    token: string;
  };
  await signInContext(page.context(), page.url(), token);
}

test('signed out, Load from URL says login required', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/converters/base64/encode/');
  await page.getByRole('button', { name: 'Load from URL' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'login required' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'sign in', exact: true })).toHaveAttribute(
    'href',
    /next=%2Ftools%2Fconverters%2Fbase64%2Fencode%2F/,
  );
  expect(errors).toEqual([]);
});

test('signed in, a URL loads into the tool; an inside address shows the server’s error', async ({ page, baseURL }) => {
  const errors = watchErrors(page);
  await page.goto(baseURL!);
  await signIn(page);
  await page.goto('/tools/converters/base64/encode/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Base64 encode');
  await page.getByRole('button', { name: 'Load from URL' }).click();
  await page.getByLabel('URL', { exact: true }).fill('http://10.0.0.1/secret.txt');
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({
      hasText:
        /^That address cannot be reached from this site\. Use a public http or https address\.\s+Details: URL_NOT_ALLOWED - 10\.0\.0\.1 cannot be fetched: 10\.0\.0\.1 is a private address$/,
    }),
  ).toBeVisible();
  await page.getByLabel('URL', { exact: true }).fill(`http://127.0.0.1:${port}/hello.txt`);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(page.getByText('hello.txt')).toBeVisible();
  await expect(page.getByLabel('Output', { exact: true })).toHaveValue(Buffer.from('Hello from a URL').toString('base64'));
  expect(errors.filter((e) => !e.includes('403'))).toEqual([]);
});
