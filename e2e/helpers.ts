import { test as base, expect, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { strToU8, zipSync } from 'fflate';

export interface Account {
  email: string;
  token: string;
  guid: string;
}

/** A new account made through the API (a unique address under `tag`), for a test to sign in with. */
export async function signUp(page: Page, tag: string, password = 'selling in e2e'): Promise<Account> {
  const email = `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await page.request.post('/v1/users', { data: { email, password } });
  const body = (await res.json()) as { token: string; profile: { guid: string } };
  return { email, token: body.token, guid: body.profile.guid };
}

/**
 * Signs a browser context in with an account's token: the session cookies the web app reads at start,
 * set before its page loads. `siteUrl` is any address of the site (its host names the cookies).
 */
export async function signInContext(context: BrowserContext, siteUrl: string, token: string): Promise<void> {
  const domain = new URL(siteUrl).hostname;
  await context.addCookies([
    { name: 'token', value: token, domain, path: '/' },
    { name: 'loggedIn', value: 'true', domain, path: '/' },
  ]);
}

/** Opens a browser context of its own for a test (another user's browser, another viewport…). */
export type NewContext = (options?: BrowserContextOptions) => Promise<BrowserContext>;

/**
 * Playwright's test with `newContext`: a context of the test's own, with the project's options (baseURL, the
 * service worker blocked unless the file opted in…) under the ones given, closed when the test ends, passed or
 * failed (a context left open goes on loading and polling in the next tests' time).
 */
export const test = base.extend<{ newContext: NewContext }>({
  newContext: async ({ browser }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (options = {}) => {
      const context = await browser.newContext(options);
      contexts.push(context);
      return context;
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
});

/** The page of a new browser context (viewport, permissions… as given), signed in with `token`. */
export async function signedInPage(
  newContext: NewContext,
  baseURL: string,
  token: string,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await newContext(options);
  await signInContext(context, baseURL, token);
  return context.newPage();
}

/** Registers this browser as a terminal named `label` on /account#terminals and waits for its controls. */
export async function registerHere(page: Page, label: string): Promise<void> {
  await page.goto('/account#terminals');
  const form = page.getByRole('form', { name: 'Register this browser' });
  await form.getByLabel('What to call this browser').fill(label);
  await form.getByRole('button', { name: 'Register this browser' }).click();
  await expect(page.getByRole('group', { name: 'This browser' }).getByRole('heading', { name: `This browser: ${label}` })).toBeVisible();
}

/** Collects console errors and uncaught page errors; a test ends by expecting the list to be empty. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** Clicks the button with exactly this name and returns the file it downloads. */
export async function downloaded(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button, exact: true }).click()]);
  return { name: download.suggestedFilename(), bytes: await readFile((await download.path())!) };
}

/** The clipboard's text (the context must have been granted clipboard-read). */
export function clipboardText(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

/**
 * Header words encoded for non-ASCII text (RFC 2047: a subject naming "Ada’s print corner" arrives as
 * `=?UTF-8?Q?...?=`), as the text a mail program shows.
 */
function decodeHeaderWords(text: string): string {
  return text.replace(/\?=\s+=\?/g, '?==?').replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_word, how: string, data: string) =>
    how.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/**
 * The settings store of the page's local database (name and value of each record), [] before the app has
 * made the database. A test that navigates or reloads right after a change waits for it here: a write
 * still in flight when the page goes is aborted with the page, as in any browser.
 */
export function storedSettings(page: Page): Promise<Array<{ name: string; value: unknown }>> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((d) => d.name === 'Tinkerdesk')) return [];
    return new Promise<Array<{ name: string; value: unknown }>>((resolve, reject) => {
      const open = indexedDB.open('Tinkerdesk');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('settings')) {
          db.close();
          resolve([]);
          return;
        }
        const all = db.transaction('settings').objectStore('settings').getAll();
        all.onsuccess = () => {
          resolve((all.result as Array<{ name: string; value: unknown }>).map(({ name, value }) => ({ name, value })));
          db.close();
        };
        all.onerror = () => reject(all.error);
      };
    });
  });
}

/**
 * The newest mail to `to` whose text matches `pattern` (the platform writes mail as .eml files under
 * DATA_DIR/mail in e2e); waits for it to be written. Quoted-printable soft breaks and encoded header
 * words undone.
 */
export async function mailTo(to: string, pattern: RegExp): Promise<string> {
  const folder = join(process.env.E2E_DATA_DIR!, 'mail');
  for (let attempt = 0; attempt < 50; attempt++) {
    const names = (await readdir(folder).catch(() => [] as string[]))
      .filter((n) => n.endsWith('.eml'))
      .sort()
      .reverse();
    for (const name of names) {
      const text = decodeHeaderWords(await readFile(join(folder, name), 'utf8'))
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (text.includes(to) && pattern.test(text)) return text;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to} matching ${pattern}`);
}

/** A sandbox card the sandbox processor accepts. */
const CARD = { number: '4242424242424242', expiry: '12 / 34', cvc: '123' };

/** A seller's sandbox shop "Ada’s print shop" with its $12.50 poster (through the API). */
export async function sandboxShop(page: Page, tag = 'refund-seller'): Promise<{ seller: Account; serviceId: string; productId: string }> {
  const seller = await signUp(page, tag);
  const auth = (a: Account) => ({ authorization: `Bearer ${a.token}` });
  await page.request.post('/v1/users/me', { data: { name: 'Ada Prints' }, headers: auth(seller) });
  const service = await page.request.post(`/v1/users/${seller.guid}/services`, {
    data: { name: 'Ada’s print shop', displayName: 'Ada’s print shop', provider: 'sandbox', vendor: 'digital', account: 'sandbox_ada' },
    headers: auth(seller),
  });
  const serviceId = ((await service.json()) as { service: { id: string } }).service.id;
  const product = await page.request.post(`/v1/users/${seller.guid}/services/${serviceId}/products`, {
    data: { name: 'Poster', description: 'A2, matte', price: 1250 },
    headers: auth(seller),
  });
  return { seller, serviceId, productId: ((await product.json()) as { product: { id: string } }).product.id };
}

/** A seller's sandbox shop and a buyer's order of its $12.50 poster, paid (through the API). */
export async function paidOrder(page: Page): Promise<{ seller: Account; buyer: Account; orderId: string; serviceId: string }> {
  const { seller, serviceId, productId } = await sandboxShop(page);
  const auth = (a: Account) => ({ authorization: `Bearer ${a.token}` });
  const buyer = await signUp(page, 'refund-buyer');
  const placed = await page.request.post(`/v1/users/${seller.guid}/services/${serviceId}/order`, {
    data: { product: productId, email: buyer.email, share: true },
    headers: auth(buyer),
  });
  const orderId = ((await placed.json()) as { order: { id: string } }).order.id;
  const started = await page.request.post(`/v1/orders/${orderId}/pay`, { headers: auth(buyer) });
  const { sessionId } = (await started.json()) as { sessionId: string };
  expect((await page.request.post(`/v1/sandbox/sessions/${sessionId}/pay`, { data: CARD })).status()).toBe(200);
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/v1/orders/${orderId}`, { headers: auth(buyer) })).json()) as { order: { state: string } }).order
          .state,
    )
    .toBe('paid');
  return { seller, buyer, orderId, serviceId };
}

/**
 * Runs one statement on the e2e platform's own database (playwright.config.ts names it after E2E_RUN_ID),
 * for what the clock would do: a plan's charge falling due now.
 */
export async function e2eDatabase(sql: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: `postgres://postgres@localhost:5432/tinkerdesk_e2e_${process.env.E2E_RUN_ID!}` });
  await client.connect();
  try {
    await client.query(sql, params);
  } finally {
    await client.end();
  }
}

/** A minimal Word document LibreOffice opens: content types, the package relation and one paragraph. */
export function docx(text: string): Buffer {
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      '_rels/.rels': strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
      'word/document.xml': strToU8(
        `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`,
      ),
    }),
  );
}
