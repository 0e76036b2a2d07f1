import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { type NewContext, signedInPage, signUp, test, watchErrors } from './helpers.js';

/**
 * The account and billing dashboards (issue 30; docs/web-app.md#dashboards), in Chromium against the real
 * platform, at 1280 and 375 px: every section's route shows its section under the section menu (the
 * current link marked, the title naming it, on a phone the heading in the first screen), with no
 * serious or critical axe violation; the menu works by keyboard alone and puts the focus on the
 * section's heading; the old anchors land on their sections and the terminals hash route stays.
 * Screenshots of every section.
 */

/** Each route, its menu, the menu link marked current there, and its section's first heading. */
const ROUTES = [
  { path: '/account', menu: 'Account sections', current: 'Profile', heading: 'Profile' },
  { path: '/account/profile', menu: 'Account sections', current: 'Profile', heading: 'Profile' },
  { path: '/account/selling', menu: 'Account sections', current: 'Selling', heading: 'Selling' },
  { path: '/account/orders', menu: 'Account sections', current: 'Orders', heading: 'Orders' },
  { path: '/account/terminals', menu: 'Account sections', current: 'Terminals', heading: 'Terminals' },
  { path: '/account/files', menu: 'Account sections', current: 'Files', heading: 'My files' },
  { path: '/account/apps', menu: 'Account sections', current: 'Apps', heading: 'Apps and access' },
  { path: '/billing', menu: 'Billing sections', current: 'Cards', heading: 'Payment methods' },
  { path: '/billing/cards', menu: 'Billing sections', current: 'Cards', heading: 'Payment methods' },
  { path: '/billing/plans', menu: 'Billing sections', current: 'Plans', heading: 'Plans' },
  { path: '/billing/requests', menu: 'Billing sections', current: 'Requests', heading: 'Payment requests to you' },
  { path: '/billing/receipts', menu: 'Billing sections', current: 'Receipts', heading: 'Receipts' },
  { path: '/billing/timeline', menu: 'Billing sections', current: 'Timeline', heading: 'Timeline' },
];

/** A signed-in seller (a sandbox service with a product, so Selling has content) on a page `width` px wide. */
async function sellerAt(newContext: NewContext, baseURL: string, width: number): Promise<Page> {
  const setup = await (await newContext()).newPage();
  const seller = await signUp(setup, 'dash');
  const headers = { authorization: `Bearer ${seller.token}` };
  const service = await setup.request.post(`/v1/users/${seller.guid}/services`, {
    data: { name: 'Dashboard prints', displayName: 'Dashboard prints', provider: 'sandbox', vendor: 'digital', account: 'sandbox_dash' },
    headers,
  });
  expect(service.status()).toBe(201);
  const serviceId = ((await service.json()) as { service: { id: string } }).service.id;
  const product = await setup.request.post(`/v1/users/${seller.guid}/services/${serviceId}/products`, {
    data: { name: 'Poster', description: 'A2, matte', price: 1250 },
    headers,
  });
  expect(product.status()).toBe(201);
  await setup.close();
  // bypassCSP: axe runs as an injected script.
  return signedInPage(newContext, baseURL, seller.token, { viewport: { width, height: 900 }, bypassCSP: true });
}

/** Waits until the shown section has loaded (no "Loading…" left in the page's content). */
async function loaded(page: Page): Promise<void> {
  await expect(
    page
      .locator('main')
      .getByRole('status')
      .filter({ hasText: /^Loading/ }),
  ).toHaveCount(0, { timeout: 15_000 });
}

for (const width of [1280, 375]) {
  test(`at ${width} px: every account and billing route shows its section under the menu, with no serious axe violation`, async ({
    newContext,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const page = await sellerAt(newContext, baseURL!, width);
    const errors = watchErrors(page);
    for (const route of ROUTES) {
      await page.goto(route.path);
      const menu = page.getByRole('navigation', { name: route.menu });
      await expect(menu.getByRole('link', { name: route.current, exact: true })).toHaveAttribute('aria-current', 'page');
      await expect(menu.locator('[aria-current="page"]')).toHaveCount(1);
      const heading = page.getByRole('heading', { level: 2, name: route.heading, exact: true });
      await expect(heading).toBeVisible();
      await expect(page).toHaveTitle(`${route.current} · ${route.menu.split(' ')[0]} · Tinkerdesk`);
      await loaded(page);
      // A phone sees the section's heading in the first screen, not under a long menu.
      expect((await heading.boundingBox())!.y).toBeLessThan(500);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const { violations } = await new AxeBuilder({ page }).analyze();
      const serious = violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(serious, `${route.path} at ${width} px`).toEqual([]);
      await page.screenshot({ path: test.info().outputPath(`${route.path.slice(1).replace(/\//g, '-')}-${width}.png`), fullPage: true });
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test(`at ${width} px: the section menu by keyboard alone, the focus on the section's heading, then into its content`, async ({
    newContext,
    baseURL,
  }) => {
    const page = await sellerAt(newContext, baseURL!, width);
    const errors = watchErrors(page);

    /** Presses Tab until `target` has the focus (at most 40 times), as a keyboard user gets there. */
    async function tabTo(target: Locator): Promise<void> {
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        if (await target.evaluate((el) => el === document.activeElement)) return;
      }
      throw new Error('Tab never reached the target');
    }

    await page.goto('/account');
    await expect(page.getByRole('heading', { level: 2, name: 'Profile', exact: true })).toBeVisible();
    const menu = page.getByRole('navigation', { name: 'Account sections' });
    const selling = menu.getByRole('link', { name: 'Selling', exact: true });
    await tabTo(selling);
    await expect(selling).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/account\/selling$/);
    await expect(page.getByRole('heading', { level: 2, name: 'Selling', exact: true })).toBeFocused();
    // The next Tab goes on into the section's content.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'New service' })).toBeFocused();

    // Back from the content, the menu's last link comes first (on a phone off screen until the focus gets there).
    const apps = menu.getByRole('link', { name: 'Apps', exact: true });
    await page.keyboard.press('Shift+Tab');
    await expect(apps).toBeFocused();
    await expect(apps).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/account\/apps$/);
    await expect(page.getByRole('heading', { level: 2, name: 'Apps and access' })).toBeFocused();
    await expect(apps).toHaveAttribute('aria-current', 'page');

    await page.goto('/billing');
    const billing = page.getByRole('navigation', { name: 'Billing sections' });
    const timeline = billing.getByRole('link', { name: 'Timeline', exact: true });
    await tabTo(timeline);
    await expect(timeline).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/billing\/timeline$/);
    await expect(page.getByRole('heading', { level: 2, name: 'Timeline' })).toBeFocused();
    await expect(page).toHaveTitle('Timeline · Billing · Tinkerdesk');
    expect(errors).toEqual([]);
    await page.context().close();
  });
}

test('only the shown section loads its data: another section loads when it is opened', async ({ newContext, baseURL }) => {
  const page = await sellerAt(newContext, baseURL!, 1280);
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  const sectionData = (prefix: string) => asked.filter((path) => path.startsWith(prefix));
  await page.goto('/account/profile');
  await expect(page.getByRole('heading', { level: 2, name: 'Profile', exact: true })).toBeVisible();
  await loaded(page);
  await page.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name: 'Files' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'My files' })).toBeFocused();
  await loaded(page);
  expect(sectionData('/v1/files').length).toBeGreaterThan(0);
  expect([...sectionData('/v1/oauth2'), ...sectionData('/v1/timeline'), ...sectionData('/v1/requests')]).toEqual([]);
  await page.context().close();
});

test('old anchors land on their sections; the terminals hash route and the verification result stay', async ({ newContext, baseURL }) => {
  const page = await sellerAt(newContext, baseURL!, 1280);
  const errors = watchErrors(page);
  for (const [old, path, heading] of [
    ['/account#selling', '/account/selling', 'Selling'],
    ['/account#terminals', '/account/terminals', 'Terminals'],
    ['/account#files', '/account/files', 'My files'],
    ['/account#apps', '/account/apps', 'Apps and access'],
    ['/billing#plans', '/billing/plans', 'Plans'],
    ['/billing#timeline-heading', '/billing/timeline', 'Timeline'],
  ] as const) {
    await page.goto(old);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 2, name: heading, exact: true })).toBeVisible();
  }

  // The spec's hash route stays as it is and shows the terminals (an unknown terminal: no inbox opens).
  const inbox = '/account/#/terminals/0b7a3c1e-5f2d-4c8e-9a61-3d2f4e5a6b7c/inbox';
  await page.goto(inbox);
  await expect(page.getByRole('heading', { level: 2, name: 'Terminals' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name: 'Terminals' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  expect(new URL(page.url()).pathname + new URL(page.url()).hash).toBe(inbox);

  // The verification link's landing says so on the profile, then drops the parameter.
  await page.goto('/account?verified=invalid');
  await expect(page.getByText('That verification link is not valid any more')).toBeVisible();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Email' })).toBeVisible();

  // Any other path under /account is not a page.
  await page.goto('/account/nothing-here');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  expect(errors).toEqual([]);
  await page.context().close();
});
