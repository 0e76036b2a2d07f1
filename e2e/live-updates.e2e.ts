import { expect, test, type Browser, type Page } from '@playwright/test';
import { type Account, registerHere, signedInPage, signUp, watchErrors } from './helpers.js';

/**
 * Live updates in Chromium with two browser contexts (docs/web-app.md "Live updates"): a link sent
 * from one terminal appears in the other browser's open inbox, and an order paid by a buyer appears
 * on the seller's open account page, both without a reload; at 1280 and 375 px.
 */
test.describe.configure({ timeout: 120_000 });

const signedIn = (browser: Browser, baseURL: string, account: Account, width: number): Promise<Page> =>
  signedInPage(browser, baseURL, account.token, { viewport: { width, height: 900 } });

/** Resolves once the page's live stream is open (its request answered 200). */
function streamOpened(page: Page): Promise<unknown> {
  return page.waitForResponse((r) => r.url().endsWith('/v1/events/stream') && r.status() === 200);
}

for (const width of [1280, 375]) {
  test(`at ${width} px: a share appears in the other browser's open inbox, and its terminal list follows a new terminal, without reload`, async ({
    browser,
    baseURL,
    page,
  }) => {
    const owner = await signUp(page, `live-${width}`);
    const sender = await signedIn(browser, baseURL!, owner, width);
    const receiver = await signedIn(browser, baseURL!, owner, width);
    const errors = watchErrors(receiver);
    await registerHere(receiver, 'Laptop');
    await receiver.getByRole('button', { name: 'Inbox of Laptop' }).click();
    const inbox = receiver.getByRole('region', { name: 'Inbox of Laptop' });
    await expect(inbox.getByText('Nothing here yet.')).toBeVisible();

    // A terminal registered in the other browser shows in this one's list without a reload.
    const opened = streamOpened(sender);
    await registerHere(sender, 'Phone');
    await opened;
    await expect(receiver.getByRole('list', { name: 'Your terminals' }).getByRole('listitem')).toHaveCount(2, { timeout: 3000 });

    const send = sender.getByRole('form', { name: 'Send to a terminal' });
    await send.getByLabel('To').selectOption({ label: 'Laptop' });
    await send.getByLabel('Link or note').fill('https://example.com/live');
    await send.getByLabel('Description (optional)').fill('Live link');
    await send.getByRole('button', { name: 'Send' }).click();
    await expect(sender.getByRole('status').filter({ hasText: 'Sent to Laptop' })).toBeVisible();

    await expect(inbox.getByRole('link', { name: 'Live link' })).toHaveAttribute('href', 'https://example.com/live', { timeout: 3000 });
    await inbox.scrollIntoViewIfNeeded();
    await receiver.screenshot({ path: test.info().outputPath(`live-inbox-${width}.png`), fullPage: false });
    expect(errors).toEqual([]);
    await sender.context().close();
    await receiver.context().close();
  });

  test(`at ${width} px: an order paid by a buyer appears on the seller's open account page, without reload`, async ({
    browser,
    baseURL,
    page,
  }) => {
    const seller = await signUp(page, `live-seller-${width}`);
    const auth = { authorization: `Bearer ${seller.token}` };
    const service = await page.request.post(`/v1/users/${seller.guid}/services`, {
      data: { name: 'Live shop', displayName: 'Live shop', provider: 'sandbox', vendor: 'digital', account: 'sandbox_live' },
      headers: auth,
    });
    const serviceId = ((await service.json()) as { service: { id: string } }).service.id;
    await page.request.post(`/v1/users/${seller.guid}/services/${serviceId}/products`, {
      data: { name: 'Live poster', description: 'A2', price: 1250 },
      headers: auth,
    });
    const buyer = await signUp(page, `live-buyer-${width}`);

    const sellerPage = await signedIn(browser, baseURL!, seller, width);
    const errors = watchErrors(sellerPage);
    const opened = streamOpened(sellerPage);
    await sellerPage.goto('/account#selling');
    await opened;
    const overview = sellerPage.getByRole('region', { name: /^Overview/ });
    await expect(overview.getByText(/No orders yet/)).toBeVisible();

    const buyerPage = await signedIn(browser, baseURL!, buyer, width);
    await buyerPage.goto(`/shop/${seller.guid}/${serviceId}`);
    await buyerPage.getByRole('button', { name: 'Order Live poster' }).click();
    await buyerPage.getByRole('button', { name: 'Order and pay $12.50' }).click();
    await expect(buyerPage).toHaveURL(/\/pay\/sandbox\/sbs_/);
    await buyerPage.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyerPage.getByLabel('Expiration').fill('12 / 34');
    await buyerPage.getByLabel('CVC').fill('123');
    await buyerPage.getByRole('button', { name: 'Pay $12.50' }).click();
    await expect(buyerPage.getByText('Paid', { exact: true }).first()).toBeVisible({ timeout: 15_000 });

    // The seller's page, untouched since it opened, shows the order as paid.
    const row = overview.getByRole('list', { name: 'Orders', exact: true }).getByRole('listitem').filter({ hasText: 'Live poster' });
    await expect(row.getByText('Paid', { exact: true })).toBeVisible({ timeout: 3000 });
    await row.scrollIntoViewIfNeeded();
    await sellerPage.screenshot({ path: test.info().outputPath(`live-seller-${width}.png`), fullPage: false });
    if (width === 375) expect(await sellerPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(errors).toEqual([]);
    await sellerPage.context().close();
    await buyerPage.context().close();
  });
}
