import { chromium, expect, test, type APIRequestContext, type CDPSession, type Page, type Worker } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DB_NAME, DB_VERSION, KV_KEYS } from '../apps/web/src/shared/storage/db.js';
import {
  PUSH_BADGE,
  PUSH_DEFAULT_ACTION,
  PUSH_ICON,
  PUSH_VIBRATE,
  SHARE_TARGET_PATH,
  type PushMessage,
  type ShareList,
} from '../libs/contracts/src/terminals-views.js';

// The service worker (apps/web/src/sw/serviceworker.ts) in Debian's Chromium against the real
// platform: the web manifest and its icons, Web Push delivered through the DevTools protocol
// (Chromium reaches no push service here), and the share target's form post.

// The suite blocks the service worker in every context (playwright.config.ts): these tests are about it.
test.use({ serviceWorkers: 'allow' });

const NOT_FOUND = 'That...is not here. Please...look again. Certainly...what you seek can be found :-D.';
const PASSWORD = 'correct horse battery staple';
let counter = 0;
const newEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${process.pid}-${++counter}@example.com`;

/** Opens a page of the site and waits until the service worker controls it; answers the worker. */
async function controlledPage(page: Page, path = '/'): Promise<Worker> {
  const worker = page.context().serviceWorkers()[0] ?? page.context().waitForEvent('serviceworker');
  await page.goto(path);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  return worker;
}

/**
 * The page's DevTools session with the ServiceWorker domain on: the site's registration id, and the
 * uncaught errors and unhandled rejections of the worker (workerErrorReported also carries its console.error lines).
 */
async function serviceWorkerDomain(page: Page): Promise<{ cdp: CDPSession; registrationId: string; workerErrors: string[] }> {
  const cdp = await page.context().newCDPSession(page);
  const scope = new URL('/', page.url()).href;
  const registrations = new Map<string, string>();
  const workerErrors: string[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
    for (const r of updated) if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
  });
  cdp.on('ServiceWorker.workerErrorReported', ({ errorMessage }) => {
    if (/^uncaught/i.test(errorMessage.errorMessage)) workerErrors.push(errorMessage.errorMessage);
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.get(scope)).toBeTruthy();
  return { cdp, registrationId: registrations.get(scope)!, workerErrors };
}

interface ShownNotification {
  title: string;
  body: string;
  icon: string;
  badge: string;
  tag: string;
  vibrate: number[];
  actions: Array<{ action: string; title: string }>;
  data: unknown;
}

/** The notifications the site's registration shows (registration.getNotifications()). */
function notifications(page: Page): Promise<ShownNotification[]> {
  return page.evaluate(async () => {
    const shown = await (await navigator.serviceWorker.ready).getNotifications();
    // badge, vibrate and actions are Chromium's (not in TypeScript's DOM library).
    return (
      shown as Array<
        Notification & { badge: string; vibrate: readonly number[]; actions: ReadonlyArray<{ action: string; title: string }> }
      >
    ).map((n) => ({
      title: n.title,
      body: n.body,
      icon: n.icon,
      badge: n.badge,
      tag: n.tag,
      vibrate: [...n.vibrate],
      actions: n.actions.map(({ action, title }) => ({ action, title })),
      data: n.data as unknown,
    }));
  });
}

test.describe('web manifest', () => {
  test('is linked from every page, served as a manifest, and Chromium reads it with its share target and icons', async ({
    page,
    request,
  }) => {
    const response = await request.get('/manifest.webmanifest');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as {
      name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: Array<{ src: string; sizes: string; type: string; purpose: string }>;
      share_target: unknown;
    };
    expect(manifest).toMatchObject({ name: 'Tinkerdesk', start_url: '/', display: 'standalone', theme_color: '#4f46e5' });
    expect(manifest.background_color).toBe('#f8fafc');
    expect(manifest.share_target).toEqual({
      action: SHARE_TARGET_PATH,
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { title: 'title', text: 'text', url: 'url' },
    });

    // Every PNG the manifest and the notifications name is there, at its size (width and height from the IHDR chunk).
    const pngs = [
      ...manifest.icons.filter((icon) => icon.type === 'image/png').map((icon) => [icon.src, Number(icon.sizes.split('x')[0])] as const),
      [PUSH_ICON, 192] as const,
      [PUSH_BADGE, 72] as const,
    ];
    expect(manifest.icons.filter((icon) => icon.purpose === 'maskable')).toHaveLength(1);
    for (const [src, size] of pngs) {
      const png = await request.get(src);
      expect(png.status(), src).toBe(200);
      expect(png.headers()['content-type']).toBe('image/png');
      const bytes = await png.body();
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], src).toEqual([size, size]);
    }

    await controlledPage(page, '/tools/');
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
    const cdp = await page.context().newCDPSession(page);
    const read = await cdp.send('Page.getAppManifest');
    expect(read.url).toMatch(/\/manifest\.webmanifest$/);
    expect(read.errors).toEqual([]);
    // (Chromium 156's DevTools protocol fills the other fields of shareTarget with the wrong values: only its action is checked here.)
    expect(read.manifest.shareTarget?.action).toBe(new URL(SHARE_TARGET_PATH, page.url()).href);
  });

  test('Chromium would offer to install the site (manifest, icons, a service worker controlling the start URL)', async ({
    launchOptions,
    baseURL,
  }) => {
    // Not in the tests' incognito contexts, where installing is never offered: a profile of its own.
    const profile = await mkdtemp(join(tmpdir(), 'tinkerdesk-install-'));
    const context = await chromium.launchPersistentContext(profile, { ...launchOptions, baseURL });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await controlledPage(page);
      const cdp = await context.newCDPSession(page);
      await expect.poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors).toEqual([]);
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  });
});

test.describe('push', () => {
  test.beforeEach(async ({ context, baseURL }) => {
    await context.grantPermissions(['notifications'], { origin: baseURL! });
  });

  test('a push message shows its notification: title, description, the View button, icon, badge, vibration and data', async ({
    page,
    baseURL,
  }) => {
    await controlledPage(page);
    const { cdp, registrationId, workerErrors } = await serviceWorkerDomain(page);
    const message: PushMessage = {
      title: 'A link from your phone',
      description: 'Read this later',
      contentType: 'text/x-uri',
      content: 'https://example.com/article',
      shareId: '2b3c7a52-27f6-4a5e-9d8e-2f7f1b0a6c11',
      terminalId: '6f1e8b7a-3c2d-4e5f-8a9b-0c1d2e3f4a5b',
    };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseURL!, registrationId, data: JSON.stringify(message) });
    await expect.poll(async () => (await notifications(page)).length).toBe(1);
    expect(await notifications(page)).toEqual([
      {
        title: 'A link from your phone',
        body: 'Read this later',
        icon: `${baseURL}${PUSH_ICON}`,
        badge: `${baseURL}${PUSH_BADGE}`,
        tag: message.shareId,
        vibrate: [...PUSH_VIBRATE],
        actions: [{ action: 'open', title: PUSH_DEFAULT_ACTION }],
        data: message,
      },
    ]);
    expect(PUSH_DEFAULT_ACTION).toBe('View');
    expect(PUSH_VIBRATE).toEqual([200, 100, 200, 100, 200, 100, 200]);

    // The message's own button label; no share id: the content is the tag. A second push adds a notification.
    const text: PushMessage = { title: 'A note', description: '', action: 'Open inbox', contentType: 'text/plain', content: 'milk, eggs' };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseURL!, registrationId, data: JSON.stringify(text) });
    await expect.poll(async () => (await notifications(page)).length).toBe(2);
    const note = (await notifications(page)).find((n) => n.title === 'A note');
    expect(note).toMatchObject({ body: '', tag: 'milk, eggs', actions: [{ action: 'open', title: 'Open inbox' }], data: text });

    // The same share again replaces its notification (same tag).
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: baseURL!,
      registrationId,
      data: JSON.stringify({ ...message, title: 'A link from your phone (again)' }),
    });
    await expect
      .poll(async () => (await notifications(page)).map((n) => n.title).sort())
      .toEqual(['A link from your phone (again)', 'A note']);
    expect(workerErrors).toEqual([]);
  });

  test('a payload that is not a push message shows nothing and is only logged by the worker', async ({ page, baseURL }) => {
    const worker = await controlledPage(page);
    const logged: Array<{ type: string; text: string }> = [];
    worker.on('console', (m) => logged.push({ type: m.type(), text: m.text() }));
    const { cdp, registrationId, workerErrors } = await serviceWorkerDomain(page);

    for (const data of ['not json {', JSON.stringify({ description: 'no title' }), JSON.stringify('a string')]) {
      await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseURL!, registrationId, data });
    }
    await expect.poll(() => logged.filter((m) => m.type === 'error' && m.text.startsWith('push not shown')).length).toBe(3);
    expect(await notifications(page)).toEqual([]);
    // Caught, so nothing reached the browser as an uncaught error or unhandled rejection.
    expect(workerErrors).toEqual([]);
    // (Which the browser would report: a rejection nobody handles.)
    await worker.evaluate(() => void Promise.reject(new Error('an unhandled probe')));
    await expect.poll(() => workerErrors).toEqual([expect.stringMatching(/^Uncaught \(in promise\).*an unhandled probe/)]);

    // The worker still shows the next good message.
    const message: PushMessage = { title: 'Still here', description: 'ok', contentType: 'text/plain', content: 'ok' };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseURL!, registrationId, data: JSON.stringify(message) });
    await expect.poll(async () => (await notifications(page)).map((n) => n.title)).toEqual(['Still here']);
  });
});

/** Stores values in the app's key-value store (IndexedDB, made by the app when it starts), as its storage messages do. */
async function storeKeys(page: Page, values: Partial<Record<keyof typeof KV_KEYS, string>>): Promise<void> {
  const entries = Object.entries(values).map(([key, value]) => [KV_KEYS[key as keyof typeof KV_KEYS], value] as const);
  await page.evaluate(
    ({ name, version, entries }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(name, version);
        open.onupgradeneeded = () => open.transaction?.abort(); // the app creates the schema, not the test
        open.onerror = () => reject(open.error ?? new Error('the database is not open'));
        open.onsuccess = () => {
          const tx = open.result.transaction('keyvalue', 'readwrite');
          for (const [key, value] of entries) tx.objectStore('keyvalue').put(value, key);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error ?? new Error('not stored'));
        };
      }),
    { name: DB_NAME, version: DB_VERSION, entries },
  );
}

/** Submits the share sheet's form (multipart POST to /_share-target) from the page, as the operating system would. */
async function share(page: Page, fields: { title?: string; text?: string; url?: string }): Promise<void> {
  await page.evaluate(
    ({ action, fields }) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.enctype = 'multipart/form-data';
      form.action = action;
      for (const [name, value] of Object.entries(fields)) {
        const input = document.createElement('input');
        input.name = name;
        input.value = value ?? '';
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    },
    { action: SHARE_TARGET_PATH, fields },
  );
}

async function api(request: APIRequestContext, method: 'GET' | 'POST', path: string, token?: string, data?: unknown) {
  const response = await request.fetch(path, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(data !== undefined ? { data } : {}),
  });
  return { status: response.status(), body: (await response.json()) as Record<string, unknown> };
}

test.describe('share target', () => {
  test('without a stored terminal id and token the share ends on /404', async ({ page }) => {
    await controlledPage(page);
    await share(page, { title: 'A title', text: 'Some text', url: 'https://example.com/' });
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByText(NOT_FOUND, { exact: true })).toBeVisible();

    // An id without its token is not enough either.
    await storeKeys(page, { terminalId: crypto.randomUUID() });
    await share(page, { text: 'Some text' });
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByText(NOT_FOUND, { exact: true })).toBeVisible();
  });

  test('a share the API refuses (unknown terminal, junk token) ends on /404', async ({ page }) => {
    const worker = await controlledPage(page);
    const warnings: string[] = [];
    worker.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await storeKeys(page, { terminalId: crypto.randomUUID(), terminalToken: 'tt_not-a-real-terminal-token' });
    await share(page, { title: 'A title', url: 'https://example.com/' });
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByText(NOT_FOUND, { exact: true })).toBeVisible();
    // The API was asked and said no (the worker logs its answer).
    expect(warnings).toEqual([expect.stringMatching(/^share not accepted 4\d\d /)]);
  });

  test("a share reaches the terminal's inbox and the page shows the share's success page", async ({ page, request }) => {
    const signUp = await api(request, 'POST', '/v1/users', undefined, { email: newEmail('share'), password: PASSWORD });
    expect(signUp.status).toBe(201);
    const userToken = signUp.body.token as string;
    const registered = await api(request, 'POST', '/v1/terminals', userToken, {
      label: 'This browser',
      send: true,
      receive: true,
      active: true,
      platform: 'Browser (desktop)',
      capabilities: [],
      remote: false,
      details: {},
    });
    expect(registered.status).toBe(201);
    const terminalId = (registered.body.terminal as { id: string }).id;
    const terminalToken = registered.body.terminalToken as string;

    await controlledPage(page);
    // As the app's 'login' and 'terminal' messages store them.
    await storeKeys(page, { token: userToken, terminalId, terminalToken });
    const success = `/account/#/terminals/${terminalId}/share/success`;

    // url wins over text and title; the description is the title.
    await share(page, { title: 'An article', text: 'Look at this', url: 'https://example.com/article?id=7' });
    await expect(page).toHaveURL(success);
    // No url: a text that is a link is shared as a link, and is its own description.
    await page.goto('/');
    await share(page, { text: 'https://example.org/page' });
    await expect(page).toHaveURL(success);
    // Plain words are plain text.
    await page.goto('/');
    await share(page, { title: 'Groceries', text: 'milk, eggs' });
    await expect(page).toHaveURL(success);

    const inbox = await api(request, 'GET', `/v1/terminals/${terminalId}/inbox`, userToken);
    expect(inbox.status).toBe(200);
    const shares = (inbox.body as unknown as ShareList).shares.map(({ contentType, content, description }) => ({
      contentType,
      content,
      description,
    }));
    expect(shares).toEqual([
      { contentType: 'text/plain', content: 'milk, eggs', description: 'Groceries' },
      { contentType: 'text/x-uri', content: 'https://example.org/page', description: 'https://example.org/page' },
      { contentType: 'text/x-uri', content: 'https://example.com/article?id=7', description: 'An article' },
    ]);
  });
});

test.describe('requests that are not shares', () => {
  test('pass through the worker: the API answers as it does without it', async ({ page }) => {
    await controlledPage(page);
    const answers = await page.evaluate(async () => {
      const health = await fetch('/v1/health/ready');
      // A POST elsewhere is the server's to answer (its JSON error), not the share target's redirect.
      const post = await fetch('/v1/no-such-route', { method: 'POST', body: new FormData(), redirect: 'manual' });
      return [
        { status: health.status, type: health.headers.get('content-type') },
        { status: post.status, type: post.headers.get('content-type'), body: (await post.json()) as unknown },
      ];
    });
    expect(answers[0]).toMatchObject({ status: 200, type: expect.stringMatching(/json/) });
    expect(answers[1]).toMatchObject({ status: 404, type: expect.stringMatching(/json/), body: { success: false, error: 'NOT_FOUND' } });
  });
});
