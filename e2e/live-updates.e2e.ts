import { expect, type Page } from '@playwright/test';
import {
  type Account,
  docx,
  e2eDatabase,
  mailTo,
  type NewContext,
  paidOrder,
  registerHere,
  signedInPage,
  signUp,
  test,
  watchErrors,
} from './helpers.js';

/**
 * Live updates in Chromium with two browser contexts (docs/web-app.md "Live updates"), each without a
 * reload, at 1280 and 375 px: a link sent from one terminal appears in the other browser's open inbox;
 * an order paid by a buyer appears on the seller's open account page; a reply on an order appears on
 * the other side's open order page; a payment request accepted or declined (with its reason) updates the
 * seller's open /billing/requests; a plan charged by the scheduler updates the payer's open /billing/plans;
 * and the file converter follows a job's progress on the stream, reading the job only when it finished.
 */
test.describe.configure({ timeout: 120_000 });

const signedIn = (newContext: NewContext, baseURL: string, account: Account, width: number): Promise<Page> =>
  signedInPage(newContext, baseURL, account.token, { viewport: { width, height: 900 } });

/** Resolves once the page's live stream is open (its request answered 200). */
function streamOpened(page: Page): Promise<unknown> {
  return page.waitForResponse((r) => r.url().endsWith('/v1/events/stream') && r.status() === 200);
}

for (const width of [1280, 375]) {
  test(`at ${width} px: a share appears in the other browser's open inbox, and its terminal list follows a new terminal, without reload`, async ({
    newContext,
    baseURL,
    page,
  }) => {
    const owner = await signUp(page, `live-${width}`);
    const sender = await signedIn(newContext, baseURL!, owner, width);
    const receiver = await signedIn(newContext, baseURL!, owner, width);
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
    newContext,
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

    const sellerPage = await signedIn(newContext, baseURL!, seller, width);
    const errors = watchErrors(sellerPage);
    const opened = streamOpened(sellerPage);
    await sellerPage.goto('/account#selling');
    await opened;
    const overview = sellerPage.getByRole('region', { name: /^Overview/ });
    await expect(overview.getByText(/No orders yet/)).toBeVisible();

    const buyerPage = await signedIn(newContext, baseURL!, buyer, width);
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

const CARD = { number: '4242424242424242', expiry: '12 / 34', cvc: '123' };
const auth = (a: Account) => ({ authorization: `Bearer ${a.token}` });

/** Opens `path` in `page` and resolves once its live stream is open too. */
async function openLive(page: Page, path: string): Promise<void> {
  const opened = streamOpened(page);
  await page.goto(path);
  await opened;
}

for (const width of [1280, 375]) {
  test(`at ${width} px: a reply on an order appears on the other side's open order page, both ways, without reload`, async ({
    newContext,
    baseURL,
    page,
  }) => {
    const { seller, buyer, orderId } = await paidOrder(page);
    const sellerPage = await signedIn(newContext, baseURL!, seller, width);
    const buyerPage = await signedIn(newContext, baseURL!, buyer, width);
    const sellerErrors = watchErrors(sellerPage);
    const buyerErrors = watchErrors(buyerPage);
    await openLive(sellerPage, `/account/orders/${orderId}`);
    await openLive(buyerPage, `/orders/${orderId}`);
    const sellerThread = sellerPage.getByRole('region', { name: 'Messages' });
    const buyerThread = buyerPage.getByRole('region', { name: 'Messages' });
    await expect(sellerThread.getByText('No messages yet.')).toBeVisible();
    await expect(buyerThread.getByText('No messages yet.')).toBeVisible();

    await buyerThread.getByLabel('Message to the seller').fill('Could you roll it rather than fold it?');
    await buyerThread.getByRole('button', { name: 'Send message' }).click();
    await expect(sellerThread.getByText('Could you roll it rather than fold it?')).toBeVisible({ timeout: 3000 });

    await sellerThread.getByLabel('Message to the buyer').fill('Rolled, in a tube: it leaves tomorrow.');
    await sellerThread.getByRole('button', { name: 'Send message' }).click();
    await expect(buyerThread.getByText('Rolled, in a tube: it leaves tomorrow.')).toBeVisible({ timeout: 3000 });
    await expect(buyerThread.getByRole('listitem')).toHaveCount(2);

    await buyerThread.scrollIntoViewIfNeeded();
    await buyerPage.screenshot({ path: test.info().outputPath(`live-reply-buyer-${width}.png`), fullPage: false });
    await sellerThread.scrollIntoViewIfNeeded();
    await sellerPage.screenshot({ path: test.info().outputPath(`live-reply-seller-${width}.png`), fullPage: false });
    expect([...sellerErrors, ...buyerErrors]).toEqual([]);
    await sellerPage.context().close();
    await buyerPage.context().close();
  });

  test(`at ${width} px: a payment request accepted or declined with a reason updates the seller's open /billing/requests, without reload`, async ({
    newContext,
    baseURL,
    page,
  }) => {
    const seller = await signUp(page, `live-requests-${width}`);
    const made = await page.request.post(`/v1/users/${seller.guid}/services`, {
      data: { name: 'Live consulting', displayName: 'Live consulting', provider: 'sandbox', vendor: 'service', account: 'sandbox_live' },
      headers: auth(seller),
    });
    const serviceId = ((await made.json()) as { service: { id: string } }).service.id;
    const key = async (email: string, description: string): Promise<{ id: string; key: string }> => {
      const sent = await page.request.post('/v1/requests', {
        data: { email, note: 'As agreed', service: serviceId, amount: 4200, description },
        headers: auth(seller),
      });
      expect(sent.status()).toBe(201);
      const link = /\/requests\/([0-9a-f-]{36})\?key=([A-Za-z0-9_-]{43})/.exec(await mailTo(email, new RegExp(description)))!;
      return { id: link[1]!, key: link[2]! };
    };
    const unique = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const declined = await key(unique('live-decliner'), 'Logo review');
    const acceptor = unique('live-acceptor');
    const accepted = await key(acceptor, 'Poster layout');

    const sellerPage = await signedIn(newContext, baseURL!, seller, width);
    const errors = watchErrors(sellerPage);
    await openLive(sellerPage, '/billing/requests');
    const sent = sellerPage.getByRole('region', { name: 'Payment requests you sent' });
    const row = (description: string) => sent.getByRole('listitem').filter({ hasText: description });
    await expect(row('Logo review').getByText('open', { exact: true })).toBeVisible();
    await expect(row('Poster layout').getByText('open', { exact: true })).toBeVisible();

    // The payers answer from their own browser (the emailed link's key), the seller's page untouched.
    const payer = await (await newContext({ baseURL: baseURL!, viewport: { width, height: 900 } })).newPage();
    const declining = await payer.request.post(`/v1/requests/${declined.id}/decline?key=${declined.key}`, {
      data: { reason: 'We settled it at the meeting.' },
    });
    expect(declining.status()).toBe(200);
    await expect(row('Logo review').getByText('declined', { exact: true })).toBeVisible({ timeout: 3000 });
    await expect(row('Logo review').getByText('Their reason: We settled it at the meeting.')).toBeVisible();

    const accepting = await payer.request.post(`/v1/requests/${accepted.id}/accept?key=${accepted.key}`, {
      data: { email: acceptor, note: '', share: false },
    });
    expect(accepting.status()).toBe(200);
    await expect(row('Poster layout').getByText('accepted', { exact: true })).toBeVisible({ timeout: 3000 });

    await sent.scrollIntoViewIfNeeded();
    await sellerPage.screenshot({ path: test.info().outputPath(`live-requests-${width}.png`), fullPage: false });
    if (width === 375) expect(await sellerPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(errors).toEqual([]);
    await sellerPage.context().close();
    await payer.context().close();
  });

  test(`at ${width} px: a plan charged by the scheduler updates the payer's open /billing/plans, without reload`, async ({
    newContext,
    baseURL,
    page,
  }) => {
    const seller = await signUp(page, `live-plan-seller-${width}`);
    const made = await page.request.post(`/v1/users/${seller.guid}/services`, {
      data: { name: 'Live lessons', displayName: 'Live lessons', provider: 'sandbox', vendor: 'service', account: 'sandbox_live' },
      headers: auth(seller),
    });
    const serviceId = ((await made.json()) as { service: { id: string } }).service.id;
    const product = await page.request.post(`/v1/users/${seller.guid}/services/${serviceId}/products`, {
      data: { name: 'Piano lesson', description: 'An hour', price: 2500 },
      headers: auth(seller),
    });
    const productId = ((await product.json()) as { product: { id: string } }).product.id;
    const payer = await signUp(page, `live-plan-payer-${width}`);
    const setup = await page.request.post('/v1/paymentmethods', { data: { provider: 'sandbox' }, headers: auth(payer) });
    // The e2e site has Stripe set up too: the card is kept by the sandbox, as the shop's provider.
    const setupId = ((await setup.json()) as { setup: { id: string } }).setup.id;
    expect((await page.request.post(`/v1/sandbox/sessions/${setupId}/pay`, { data: CARD })).status()).toBe(200);
    const kept = await page.request.post(`/v1/paymentmethods/setup/${setupId}/complete`, { headers: auth(payer) });
    const card = ((await kept.json()) as { instrument: { id: string } }).instrument.id;
    const created = await page.request.post('/v1/plans', {
      data: {
        service: serviceId,
        product: productId,
        interval: 'month',
        reminderDay: -1,
        start: new Date(Date.now() + 10 * 60_000).toISOString(),
        timeZone: 'Europe/Berlin',
        paymentMethod: card,
      },
      headers: auth(payer),
    });
    expect(created.status()).toBe(201);
    const planId = ((await created.json()) as { plan: { id: string } }).plan.id;

    const payerPage = await signedIn(newContext, baseURL!, payer, width);
    const errors = watchErrors(payerPage);
    await openLive(payerPage, '/billing/plans');
    const plan = payerPage.getByRole('region', { name: 'Plans' }).getByRole('listitem').filter({ hasText: 'Piano lesson' });
    await expect(plan.getByText(/starts on/)).toBeVisible();

    // Its first charge falls due now (as the clock reaching it would): the platform's scheduler sweeps
    // every 5 s (PLAN_SWEEP_SECONDS in playwright.config.ts) and charges it; the open page follows the
    // plan.charged event.
    await e2eDatabase(`UPDATE "commerce"."plan" SET "next_charge_at" = now() WHERE "id" = $1`, [planId]);
    await expect(plan.getByText(/next charge/)).toBeVisible({ timeout: 20_000 });

    await plan.scrollIntoViewIfNeeded();
    await payerPage.screenshot({ path: test.info().outputPath(`live-plan-${width}.png`), fullPage: false });
    if (width === 375) expect(await payerPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(errors).toEqual([]);
    await payerPage.context().close();
  });
}

test('the file converter follows a job on the live stream: no poll while it is up, one read when it finished', async ({
  newContext,
  baseURL,
  page,
}) => {
  const owner = await signUp(page, 'live-converter');
  const converter = await signedIn(newContext, baseURL!, owner, 1280);
  const errors = watchErrors(converter);
  const reads: string[] = [];
  converter.on('request', (r) => {
    if (r.method() === 'GET' && /\/v1\/convert\/jobs\/[0-9a-f-]{36}(\?.*)?$/.test(r.url())) reads.push(r.url());
  });
  await openLive(converter, '/tools/converters/files/');
  await expect(converter.getByRole('heading', { name: 'Your recent conversions' })).toBeVisible({ timeout: 15_000 });
  await converter.locator('input[type=file]').setInputFiles({
    name: 'Live minutes.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: docx('Followed on the stream.'),
  });
  await converter.getByRole('button', { name: 'Convert all' }).click();
  await expect(converter.getByText(/Converted: Live minutes\.pdf/)).toBeVisible({ timeout: 30_000 });
  // The progress came from the stream; the job was read once, for its result, not polled meanwhile.
  expect(reads.length).toBeLessThanOrEqual(1);
  expect(errors).toEqual([]);
  await converter.context().close();
});
