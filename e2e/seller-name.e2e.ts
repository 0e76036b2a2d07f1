import { expect, type Page } from '@playwright/test';
import { mailTo, type NewContext, signInContext, signUp, test, watchErrors } from './helpers.js';

/**
 * The name buyers see, in Chromium against the real platform, at 1280 and 375 px: a seller who never
 * gave a profile name sets up selling; the form asks for the seller name (required, the error on the
 * field), then the storefront, the sandbox pay page, the order page, the printable receipt and the
 * receipt email all name the seller by it. Screenshots of each page go to the test's output folder.
 */
async function signedInPage(newContext: NewContext, baseURL: string, width: number): Promise<{ page: Page; email: string }> {
  const context = await newContext({ baseURL, viewport: { width, height: 900 } });
  const page = await context.newPage();
  const seller = await signUp(page, `nameless-${width}`);
  await signInContext(context, baseURL, seller.token);
  return { page, email: seller.email };
}

async function shot(page: Page, name: string, width: number): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  if (width <= 375) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

for (const width of [1280, 375]) {
  test(`at ${width} px a seller without a profile name sets up selling with the name buyers see, and buyers see it`, async ({
    newContext,
    baseURL,
  }) => {
    const { page } = await signedInPage(newContext, baseURL!, width);
    const errors = watchErrors(page);
    const tag = `${width}-${Date.now().toString(36)}`;
    const sellerName = `Riso Corner ${tag}`;

    await page.goto('/account#selling');
    const selling = page.locator('#selling');
    await selling.getByRole('button', { name: 'New service' }).click();
    await page.getByLabel('Service name').fill('Prints');
    // Every run's service is named Prints: its shop link must be its own.
    await page.getByLabel('Shop link (optional)').fill(`prints-${tag}`);
    const field = page.getByLabel('Seller name buyers see');
    await expect(field).toHaveValue('');
    await page.getByRole('button', { name: 'Create service' }).click();
    const required = 'Enter the name buyers see: your name or your shop’s.';
    await expect(page.getByText(required)).toBeVisible();
    await expect(field).toBeFocused();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await page.getByText(required).scrollIntoViewIfNeeded();
    await shot(page, 'service-form-required', width);

    await field.fill(sellerName);
    await expect(page.getByText(required)).toBeHidden();
    await page.getByRole('button', { name: 'Create service' }).click();
    await expect(selling.getByRole('heading', { name: 'Prints' })).toBeVisible();
    await selling.getByRole('button', { name: 'Add product' }).click();
    await page.getByLabel('Product name').fill('Poster');
    await page.getByLabel('Price (US dollars)').fill('12.50');
    await page.getByRole('button', { name: 'Add product', exact: true }).last().click();
    await expect(selling.getByText('$12.50')).toBeVisible();

    // The buyer: a visitor on the public page.
    await selling.getByRole('link', { name: 'Public page' }).click();
    await expect(page.getByRole('heading', { name: 'Prints', level: 1 })).toBeVisible();
    await expect(page.getByText(`Sold by ${sellerName}`)).toBeVisible();
    await expect(page.getByText(/a Tinkerdesk seller/)).toHaveCount(0);
    await shot(page, 'storefront', width);
    const shopUrl = page.url();
    const buyerPage = await (await newContext({ baseURL, viewport: { width, height: 900 } })).newPage();
    const buyerErrors = watchErrors(buyerPage);
    const buyerEmail = `name-buyer-${tag}@example.com`;
    await buyerPage.goto(shopUrl);
    await buyerPage.getByRole('button', { name: 'Order Poster' }).click();
    const form = buyerPage.getByRole('form', { name: 'Order Poster' });
    await form.getByLabel('Email (for the receipt)').fill(buyerEmail);
    await form.getByRole('button', { name: 'Order and pay $12.50' }).click();

    await expect(buyerPage).toHaveURL(/\/pay\/sandbox\/sbs_/);
    await expect(buyerPage.getByRole('region', { name: 'What you pay for' }).getByText(sellerName)).toBeVisible();
    await shot(buyerPage, 'sandbox-pay', width);
    await buyerPage.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyerPage.getByLabel('Expiration').fill('12 / 34');
    await buyerPage.getByLabel('CVC').fill('123');
    await buyerPage.getByRole('button', { name: 'Pay $12.50' }).click();

    await expect(buyerPage).toHaveURL(/\/orders\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    await expect(buyerPage.getByText(`From ${sellerName} · Prints`)).toBeVisible();
    await expect(buyerPage.getByText('Paid', { exact: true }).first()).toBeVisible();
    await shot(buyerPage, 'order', width);
    const receipt = buyerPage.getByRole('region', { name: 'Receipt' });
    const number = (await receipt.getByText(/^R-\d{4}-\d{6}$/).textContent())!;
    await receipt.getByRole('link', { name: 'Printable receipt' }).click();
    await expect(buyerPage.getByRole('heading', { name: 'Receipt', level: 1 })).toBeVisible();
    await expect(buyerPage.getByText(`${sellerName} · Prints`)).toBeVisible();
    await shot(buyerPage, 'receipt', width);

    const mail = await mailTo(buyerEmail, new RegExp(`Subject: Your receipt ${number}`));
    expect(mail).toContain(`Subject: Your receipt ${number} from ${sellerName}`);
    expect(errors).toEqual([]);
    expect(buyerErrors).toEqual([]);
  });
}
