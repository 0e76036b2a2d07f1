import { expect, type Page } from '@playwright/test';
import { type Account, mailTo, type NewContext, signInContext, signUp, test, watchErrors } from './helpers.js';

/**
 * Payment requests of a custom amount in Chromium against the real platform (issue 29): a seller asks
 * an amount with a description, no product first, from /account (mistakes said on their fields); one
 * payer declines with a reason, which the seller reads on the request and in Billing; another payer
 * pays, and the order and the receipt carry the description. At 1280 and 375 px, with screenshots.
 */

const LINK = /http:\/\/localhost:\d+(\/requests\/[0-9a-f-]{36}\?key=[A-Za-z0-9_-]{43})/;
const unique = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** A seller with a name and a service without products, signed in in a new context of this width. */
async function seller(newContext: NewContext, baseURL: string, width: number): Promise<{ page: Page; account: Account; service: string }> {
  const context = await newContext({ baseURL, viewport: { width, height: 900 } });
  const page = await context.newPage();
  const account = await signUp(page, 'custom-seller');
  const auth = { authorization: `Bearer ${account.token}` };
  await page.request.post('/v1/users/me', { data: { name: 'Ada Lovelace' }, headers: auth });
  const service = `Ada Consulting ${Math.random().toString(36).slice(2, 6)}`;
  const made = await page.request.post(`/v1/users/${account.guid}/services`, {
    data: { name: service, displayName: 'Ada Lovelace', provider: 'sandbox', vendor: 'service', account: 'sandbox_ada' },
    headers: auth,
  });
  expect(made.status()).toBe(201);
  await signInContext(context, baseURL, account.token);
  return { page, account, service };
}

/** Fills and sends the custom amount form; answers the emailed link's path. */
async function requestCustom(page: Page, service: string, payer: string, amount: string, description: string): Promise<string> {
  await page.getByRole('button', { name: `Request a custom amount for ${service}` }).click();
  const form = page.getByRole('form', { name: `Request a custom amount for ${service}` });
  await form.getByLabel('Their email').fill(payer);
  await form.getByLabel('Amount (US dollars)').fill(amount);
  await form.getByLabel('What it is for').fill(description);
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText(`Request sent to ${payer}`)).toBeVisible();
  return LINK.exec(await mailTo(payer, new RegExp(description)))![1]!;
}

async function fits(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

for (const width of [1280, 375]) {
  test(`at ${width} px: a seller asks a custom amount; one payer declines with a reason, another pays`, async ({ newContext, baseURL }) => {
    const { page, service } = await seller(newContext, baseURL!, width);
    const errors = watchErrors(page);
    await page.goto('/account#selling');

    // Mistakes are said on their fields, before anything is sent.
    await page.getByRole('button', { name: `Request a custom amount for ${service}` }).click();
    const form = page.getByRole('form', { name: `Request a custom amount for ${service}` });
    await form.getByLabel('Their email').fill('not an address');
    await form.getByLabel('Amount (US dollars)').fill('0.10');
    await form.getByRole('button', { name: 'Send request' }).click();
    await expect(form.getByLabel('Their email')).toBeFocused();
    await expect(form.getByText('Please enter a valid email address.')).toBeVisible();
    await expect(form.getByText('The amount must be at least $0.50.')).toBeVisible();
    await expect(form.getByText('Say what the payment is for.')).toBeVisible();
    await fits(page, width);
    await form.screenshot({ path: test.info().outputPath(`custom-form-errors-${width}.png`) });
    await form.getByRole('button', { name: 'Cancel' }).click();

    const description = 'Consulting hour, 3 March: logo review';
    const decliner = unique('decliner');
    const declineLink = await requestCustom(page, service, decliner, '125.50', description);
    const payer = unique('payer');
    const payLink = await requestCustom(page, service, payer, '125.50', description);

    // The first payer, signed out, declines with a reason.
    const other = await (await newContext({ baseURL, viewport: { width, height: 900 } })).newPage();
    const otherErrors = watchErrors(other);
    await other.goto(declineLink);
    await expect(other.getByRole('heading', { name: `$125.50 for ${description}` })).toBeVisible();
    await expect(other.getByText('Ada Lovelace', { exact: false }).first()).toBeVisible();
    await other.getByRole('button', { name: 'Decline…' }).click();
    const panel = other.getByRole('group', { name: 'Decline this request' });
    await panel.getByLabel('Why are you declining? (optional, the seller sees it)').fill('We settled this in cash at the meeting.');
    await fits(other, width);
    await other.screenshot({ path: test.info().outputPath(`decline-with-reason-${width}.png`), fullPage: true });
    await panel.getByRole('button', { name: 'Decline the request' }).click();
    await expect(other.getByText('Declined', { exact: true })).toBeVisible();
    await expect(other.getByText('We settled this in cash at the meeting.')).toBeVisible();

    // The second pays; back on the request, which says paid; the order carries the description.
    await other.goto(payLink);
    await other.getByLabel('Email (for the receipt)').fill(payer);
    await other.getByRole('button', { name: 'Accept and pay $125.50' }).click();
    await expect(other).toHaveURL(/\/pay\/sandbox\/sbs_/);
    await other.getByLabel('Card number').fill('4242 4242 4242 4242');
    await other.getByLabel('Expiration').fill('12 / 34');
    await other.getByLabel('CVC').fill('123');
    await other.getByRole('button', { name: 'Pay $125.50' }).click();
    await expect(other.getByText('Paid', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(other.getByRole('heading', { name: `$125.50 for ${description}` })).toBeVisible();
    await other.getByRole('link', { name: 'See the order' }).click();
    await expect(other).toHaveURL(/\/orders\/[0-9a-f-]{36}$/);
    await expect(other.getByText('Loading…')).toHaveCount(0);
    await expect(other.locator('main').getByText(description).first()).toBeVisible();
    await expect(other.locator('main').getByText('$125.50').first()).toBeVisible();
    await fits(other, width);
    await other.screenshot({ path: test.info().outputPath(`custom-order-${width}.png`), fullPage: true });
    const receipt = await mailTo(payer, /Subject: Your receipt R-/);
    expect(receipt).toContain(description);

    // The seller reads the reason on the request and in Billing.
    await page.goto(declineLink.replace(/\?key=.*$/, ''));
    await expect(page.getByText('Their reason')).toBeVisible();
    await expect(page.getByText('We settled this in cash at the meeting.')).toBeVisible();
    await fits(page, width);
    await page.screenshot({ path: test.info().outputPath(`seller-declined-request-${width}.png`), fullPage: true });
    await page.goto('/billing/requests');
    const sent = page.getByRole('region', { name: 'Payment requests you sent' });
    await expect(sent.getByText('Their reason: We settled this in cash at the meeting.')).toBeVisible();
    await expect(sent.getByText('paid', { exact: true })).toBeVisible();
    await page.goto('/billing/timeline');
    await expect(
      page.getByRole('region', { name: 'Timeline' }).getByText(/declined your request of \$125\.50 for Consulting hour/),
    ).toBeVisible();
    await fits(page, width);
    await page.screenshot({ path: test.info().outputPath(`seller-billing-${width}.png`), fullPage: true });
    expect(otherErrors).toEqual([]);
    expect(errors).toEqual([]);
  });
}
