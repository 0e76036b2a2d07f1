import { expect, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { signInContext, test, watchErrors } from './helpers.js';

/**
 * A signed-in visitor's /account is painted from the gateway's own read of their account
 * (apps/gateway/src/web/account-page.ts): with JavaScript off it shows their dashboard; with it on, the
 * app takes the same page over without asking for the profile again and without "Loading…" in between,
 * the cards where the shell had them, and works from then on.
 */
const NAME = 'Maximiliane Adelheid Wilhelmina von Hohenzollern-Sigmaringen';

async function account(page: Page): Promise<{ email: string; token: string }> {
  // A 40-character address: it has to fit the card at 375 px.
  const email = `${`account-shell-${randomBytes(8).toString('hex')}`.slice(0, 28)}@example.com`;
  const res = await page.request.post('/v1/users', { data: { email, password: 'account shells in e2e', tz: 'Europe/Berlin' } });
  const { token } = (await res.json()) as { token: string };
  const named = await page.request.post('/v1/users/me', {
    data: { name: NAME, tz: 'Europe/Berlin' },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(named.ok()).toBe(true);
  return { email, token };
}

const EMAIL_CARD = 'section[aria-labelledby="email-heading"]';
const boxes = async (page: Page) =>
  Promise.all(['h1', EMAIL_CARD, 'section[aria-labelledby="security-heading"]'].map((s) => page.locator(s).first().boundingBox()));

for (const width of [375, 1280]) {
  test(`a signed-in visitor's account paints from the page and the app takes it over in place (${width} px)`, async ({
    page,
    newContext,
    baseURL,
  }, info) => {
    const { email, token } = await account(page);
    // The device's zone is the account's: the Profile card offers no other (that offer comes with the zones' list).
    const options = { viewport: { width, height: 900 }, timezoneId: 'Europe/Berlin' };

    const off = await newContext({ ...options, javaScriptEnabled: false });
    await signInContext(off, baseURL!, token);
    const offPage = await off.newPage();
    await offPage.goto('/account');
    await expect(offPage.getByRole('heading', { level: 1 })).toHaveText('Account');
    await expect(offPage.locator(EMAIL_CARD)).toContainText(email);
    await expect(offPage.locator(EMAIL_CARD)).toContainText('Not verified');
    await expect(offPage.locator('#profile-name')).toHaveValue(NAME);
    await expect(offPage.locator('#profile-tz')).toHaveValue('Europe/Berlin');
    expect(await offPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    const shellBoxes = await boxes(offPage);
    await offPage.screenshot({ path: info.outputPath(`account-shell-${width}.png`), fullPage: true });
    await off.close();

    const on = await newContext(options);
    await signInContext(on, baseURL!, token);
    const onPage = await on.newPage();
    const errors = watchErrors(onPage);
    const reads: string[] = [];
    onPage.on('request', (request) => {
      if (new URL(request.url()).pathname === '/v1/users/me') reads.push(request.url());
    });
    await onPage.addInitScript(() => {
      const seen = () =>
        document.body?.textContent?.includes('Loading…') && ((window as unknown as { sawLoading: boolean }).sawLoading = true);
      new MutationObserver(seen).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await onPage.goto('/account');
    // The app has rendered once its footer is there (the shell has none).
    await expect(onPage.getByRole('contentinfo')).toBeVisible();
    await expect(onPage.locator(EMAIL_CARD)).toContainText(email);
    expect(await boxes(onPage)).toEqual(shellBoxes);
    expect(await onPage.evaluate(() => (window as unknown as { sawLoading?: boolean }).sawLoading ?? false)).toBe(false);
    expect(reads).toEqual([]);

    // The app's page works: the name saved is the account's.
    await onPage.locator('#profile-name').fill('Ada');
    await onPage.getByRole('button', { name: 'Save profile' }).click();
    await expect
      .poll(
        async () =>
          ((await (await onPage.request.get('/v1/users/me', { headers: { authorization: `Bearer ${token}` } })).json()) as { name: string })
            .name,
      )
      .toBe('Ada');
    await onPage.screenshot({ path: info.outputPath(`account-app-${width}.png`), fullPage: true });
    expect(errors).toEqual([]);
  });
}

test('a visitor without a session gets no account painted, and is sent to sign in', async ({ page }) => {
  const res = await page.request.get('/account', { headers: { cookie: 'token=not-a-session' } });
  expect(res.headers()['cache-control']).toBe('no-cache');
  expect(await res.text()).not.toContain('account-answer');
  await page.goto('/account');
  await expect(page).toHaveURL(/\/login/);
});
