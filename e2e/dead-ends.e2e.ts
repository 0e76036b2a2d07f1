import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { mailTo, signInContext, signUp, test, watchErrors } from './helpers.js';

/**
 * Addresses that answered "Page not found" to someone who only needed to be told what to do, in Chromium
 * against the real platform, at 1280 and 375 px with screenshots: a payment request opened without the
 * emailed link's key by a payer whose address is not verified yet (verify first: the page says so, the
 * same for any request, and sends the link again), and /billing/plans/new without the product it is
 * for (plans start from a seller's page).
 */

async function fits(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

for (const width of [1280, 375]) {
  test(`at ${width} px: an unverified payer without the link's key is told to verify, and nothing of the request`, async ({
    newContext,
    baseURL,
    page,
  }) => {
    const seller = await signUp(page, `verify-first-seller-${width}`);
    const auth = { authorization: `Bearer ${seller.token}` };
    const made = await page.request.post(`/v1/users/${seller.guid}/services`, {
      data: {
        name: 'Verify first prints',
        displayName: 'Verify first prints',
        provider: 'sandbox',
        vendor: 'service',
        account: 'sandbox_vf',
      },
      headers: auth,
    });
    const serviceId = ((await made.json()) as { service: { id: string } }).service.id;
    const payer = await signUp(page, `verify-first-payer-${width}`);
    const description = `Poster print ${width}`;
    const sent = await page.request.post('/v1/requests', {
      data: { email: payer.email, service: serviceId, amount: 1250, description },
      headers: auth,
    });
    expect(sent.status()).toBe(201);
    const requestId = /\/requests\/([0-9a-f-]{36})\?key=/.exec(await mailTo(payer.email, new RegExp(description)))![1]!;

    const context = await newContext({ baseURL, viewport: { width, height: 900 } });
    await signInContext(context, baseURL!, payer.token);
    const payerPage = await context.newPage();
    const errors = watchErrors(payerPage);
    await payerPage.goto(`/requests/${requestId}`);
    const heading = payerPage.getByRole('heading', { level: 1, name: 'Verify your email address to see this request' });
    await expect(heading).toBeVisible();
    const main = payerPage.getByRole('main');
    await expect(main).toContainText(`You are signed in as ${payer.email}.`);
    await expect(main).not.toContainText(description);
    await expect(main).not.toContainText('$12.50');
    await expect(payerPage.getByText('Page not found')).toHaveCount(0);
    await fits(payerPage, width);
    await payerPage.screenshot({ path: test.info().outputPath(`verify-first-${width}.png`), fullPage: true });
    const shown = await main.innerText();

    // A request that does not exist reads the same: the page tells nothing of the one above.
    await payerPage.goto(`/requests/${randomUUID()}`);
    await expect(heading).toBeVisible();
    expect(await main.innerText()).toBe(shown);

    await payerPage.getByRole('button', { name: 'Email me the link again' }).click();
    await expect(payerPage.getByText(`We sent a verification link to ${payer.email}.`)).toBeVisible();
    // The two reads of a request answered 404 (as they must: the page is built on that answer); nothing else failed.
    expect(errors).toEqual(Array(2).fill('Failed to load resource: the server responded with a status of 404 (Not Found)'));
    await context.close();
  });

  test(`at ${width} px: /billing/plans/new without a product says plans start from a seller's page`, async ({ newContext, baseURL }) => {
    const context = await newContext({ baseURL, viewport: { width, height: 900 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto('/billing/plans/new');
    await expect(page.getByRole('heading', { level: 1, name: 'Start a plan' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText('choose “Pay regularly” next to the product');
    await expect(page.getByText('Page not found')).toHaveCount(0);
    await fits(page, width);
    await page.screenshot({ path: test.info().outputPath(`plans-new-without-product-${width}.png`), fullPage: true });
    // Its link leads to the user's plans (through sign-in when signed out).
    await page.getByRole('link', { name: 'See your plans' }).click();
    await expect(page).toHaveURL(/\/login/);
    expect(errors).toEqual([]);
    await context.close();
  });
}
