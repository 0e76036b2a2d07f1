import { expect, test, type Page } from '@playwright/test';
import { mailTo, signUp, watchErrors } from './helpers.js';

/**
 * A guest buyer becomes the order's buyer, in Chromium against the real platform: a visitor orders
 * signed out and pays; the seller writes; the visitor follows the email's link to the order, signs up
 * from it with the order's address (back on the order, told to confirm), opens the verification link
 * (back on the order again, now its buyer), reads the seller's message, answers, and finds the order
 * in "My orders". At 1280 and 375 px, with screenshots of each step.
 */

const uniqueAddress = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** A seller with a sandbox service (with a support address) and a product, made through the API. */
async function shop(page: Page): Promise<{ token: string; guid: string; serviceId: string }> {
  const seller = await signUp(page, 'gb-seller');
  const headers = { authorization: `Bearer ${seller.token}` };
  await page.request.post('/v1/users/me', { data: { name: 'Ada Prints' }, headers });
  const service = await page.request.post(`/v1/users/${seller.guid}/services`, {
    data: {
      name: 'Ada’s print corner',
      displayName: 'Ada’s print corner',
      provider: 'sandbox',
      vendor: 'digital',
      account: 'sandbox_ada',
      supportEmail: 'help@ada.example',
    },
    headers,
  });
  expect(service.status()).toBe(201);
  const serviceId = ((await service.json()) as { service: { id: string } }).service.id;
  const product = await page.request.post(`/v1/users/${seller.guid}/services/${serviceId}/products`, {
    data: { name: 'Poster', description: 'A2, matte', price: 1250 },
    headers,
  });
  expect(product.status()).toBe(201);
  return { token: seller.token, guid: seller.guid, serviceId };
}

async function noHorizontalScroll(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

for (const width of [1280, 375]) {
  test(`at ${width} px: a guest orders, follows the email to the order, signs up and verifies from it, and answers as its buyer`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const errors = watchErrors(page);
    await page.setViewportSize({ width, height: 900 });
    const shot = (name: string) => page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
    const seller = await shop(page);
    const email = uniqueAddress('gb-guest');

    // Ordered and paid signed out.
    await page.goto(`/shop/${seller.guid}/${seller.serviceId}`);
    await page.getByRole('button', { name: 'Order Poster' }).click();
    const form = page.getByRole('form', { name: 'Order Poster' });
    await form.getByLabel('Email (for the receipt)').fill(email);
    await form.getByRole('button', { name: 'Order and pay $12.50' }).click();
    await expect(page).toHaveURL(/\/pay\/sandbox\/sbs_/);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiration').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Pay $12.50' }).click();
    await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    const orderId = /\/orders\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
    const receipt = await mailTo(email, /Your receipt R-/);
    expect(receipt).toContain('A reply to this email goes to the seller by email (help@ada.example)');

    // The seller writes; the email's link leads to the order, where a visitor is told how to become its buyer.
    const wrote = await page.request.post(`/v1/orders/${orderId}/reply`, {
      data: { note: 'Your poster ships on Monday.' },
      headers: { authorization: `Bearer ${seller.token}` },
    });
    expect(wrote.status()).toBe(200);
    const message = await mailTo(email, /New message from the seller/);
    expect(message).toContain('it does not appear in the order');
    const answerHere = /Answer here: (http:\/\/\S+)/.exec(message)![1]!;
    expect(new URL(answerHere).pathname).toBe(`/orders/${orderId}`);
    await page.goto(new URL(answerHere).pathname);
    const messages = page.getByRole('region', { name: 'Messages' });
    await expect(messages).toContainText('for them only');
    await expect(messages).toContainText(email);
    await expect(page.getByText('Your poster ships on Monday.')).toHaveCount(0);
    await noHorizontalScroll(page, width);
    await shot('order-visitor');

    // Sign up from the order, with its address: back on the order, asked to confirm the address.
    await messages.getByRole('link', { name: 'create an account' }).click();
    await expect(page).toHaveURL(/\/login\?next=%2Forders%2F/);
    const signUpForm = page.getByRole('form', { name: 'Sign up' });
    await signUpForm.getByLabel('Email').fill(email);
    await signUpForm.getByLabel('Password', { exact: true }).fill('guest buyer password 1');
    await signUpForm.getByRole('button', { name: 'Sign up' }).click();
    await expect(page).toHaveURL(new RegExp(`/orders/${orderId}$`));
    await expect(messages).toContainText('it is not confirmed yet');
    await expect(page.getByText('Your poster ships on Monday.')).toHaveCount(0);
    await noHorizontalScroll(page, width);
    await shot('order-unconfirmed');

    // The verification link brings the buyer back to the order, now as its buyer.
    const verification = await mailTo(email, /\/v1\/account\/verify\?token=/);
    const link = /(http:\/\/localhost:\d+\/v1\/account\/verify\?token=\S+)/.exec(verification)![1]!;
    expect(link).toContain(`next=${encodeURIComponent(`/orders/${orderId}`)}`);
    await page.goto(link);
    await expect(page).toHaveURL(new RegExp(`/orders/${orderId}$`));
    await expect(page.getByText('Your poster ships on Monday.')).toBeVisible();
    await page.getByLabel('Message to the seller').fill('Thank you! Could you roll it, not fold it?');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Thank you! Could you roll it, not fold it?')).toBeVisible();
    await noHorizontalScroll(page, width);
    await shot('order-buyer');

    // The order is in the buyer's orders.
    await page.goto('/account/orders');
    const mine = page.locator('.orders-list', { has: page.getByRole('heading', { name: 'My orders' }) });
    await expect(mine.getByRole('link', { name: 'Poster' })).toBeVisible();
    await noHorizontalScroll(page, width);
    await shot('account-my-orders');
    expect(errors).toEqual([]);
  });
}
