import { expect, test, type Page } from '@playwright/test';
import { storedSettings } from './helpers.js';

// What every tool shares: the service worker that keeps the site working offline, and the local
// history (recently used tools, opt-in inputs, clearing), driven through the real UI in Chromium.

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** Records of the local history store (IndexedDB 'Tinkerdesk', store history). */
function history(page: Page): Promise<Array<{ id: string; type: string; source: string; data: unknown }>> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('Tinkerdesk', 1);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('history').objectStore('history').getAll();
          all.onsuccess = () => {
            resolve(all.result as Array<{ id: string; type: string; source: string; data: unknown }>);
            open.result.close();
          };
        };
      }),
  );
}

test.describe('offline', () => {
  // The suite blocks the service worker (playwright.config.ts): offline use is its work.
  test.use({ serviceWorkers: 'allow' });

  test('after the first visit the tools keep working without a network', async ({ page, context }) => {
    const errors = watchErrors(page);
    await page.goto('/tools/converters/rot13/encode/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('ROT13 encode');
    // The service worker at /serviceworker.js takes control and precaches the build.
    const script = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
    expect(script).toMatch(/\/serviceworker\.js$/);
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

    await context.setOffline(true);
    await page.goto('/tools/converters/rot13/decode/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('ROT13 decode');
    await page.getByLabel('Input', { exact: true }).fill('Uryyb');
    await expect(page.getByLabel('Output', { exact: true })).toHaveValue('Hello');
    await page.goto('/tools/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('All tools');
    await context.setOffline(false);
    expect(errors).toEqual([]);
  });

  test('/serviceworker.js is served as JavaScript and never cached by HTTP', async ({ request }) => {
    const response = await request.get('/serviceworker.js');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/javascript/);
    expect(response.headers()['cache-control']).toBe('no-cache');
    expect(await response.text()).toContain('/index.html');
  });
});

test.describe('local history', () => {
  test('lists recently used tools, keeps inputs only after opting in, and clears after asking', async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto('/tools/');
    await expect(page.getByText('Tools you open appear here.')).toBeVisible();

    await page.goto('/tools/converters/rot13/encode/');
    await page.getByLabel('Input', { exact: true }).fill('not kept');
    await page.waitForTimeout(1300);
    expect((await history(page)).filter((r) => r.type === 'input')).toEqual([]);

    await page.goto('/tools/');
    const recent = page.getByRole('region', { name: 'Recently used' });
    await expect(recent.getByRole('link', { name: 'ROT13 encode' })).toBeVisible();
    await recent.getByLabel('Keep my recent inputs in this browser').check();
    // Stored before the next page is opened (a write in flight is aborted with the page).
    await expect.poll(async () => (await storedSettings(page)).find((r) => r.name === 'history.keepInputs')?.value).toBe(true);

    await page.goto('/tools/converters/rot13/encode/');
    await page.getByLabel('Input', { exact: true }).fill('kept for later');
    await expect.poll(async () => (await history(page)).filter((r) => r.type === 'input').map((r) => r.data)).toEqual(['kept for later']);

    await page.goto('/tools/');
    await recent.getByRole('button', { name: 'Clear history' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clear the history?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(recent.getByRole('link', { name: 'ROT13 encode' })).toBeVisible();
    await recent.getByRole('button', { name: 'Clear history' }).click();
    await dialog.getByRole('button', { name: 'Clear history' }).click();
    await expect(page.getByText('The history is cleared.')).toBeVisible();
    await expect(recent.getByText('Tools you open appear here.')).toBeVisible();
    expect(await history(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
