import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { type Account, paidOrder, signInContext, test, watchErrors } from './helpers.js';

/**
 * Inline forms by keyboard alone in Chromium against the real platform (docs/web-app.md#inline-forms):
 * New service, Add product, Request payment and Refund open with Enter on their button, the focus lands in
 * the form (its first field; a confirmation's way back), Escape closes it and the focus is back on its
 * opener; Request payment opens under the product it is for (not under the last one); a refusal is said on
 * its field, named by it, and takes the focus (the server's "shop link taken" on the shop link field);
 * axe finds no serious or critical violation in the opened forms. At 1280 and 375 px, with screenshots of
 * the opened forms with a field error in test-results/inline-forms.
 */
const SHOTS = 'test-results/inline-forms';

/** The whole page, and the open form with what is around it (to look at closely). */
async function shot(page: Page, name: string, around: Locator): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await around.screenshot({ path: `${SHOTS}/${name}-form.png` });
}

/** No serious or critical accessibility violation inside `selector` (the opened form). */
async function accessible(page: Page, selector: string): Promise<void> {
  const result = await new AxeBuilder({ page }).include(selector).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Moves the keyboard focus to `opener` and presses Enter, as Tab would bring it there and a person would press it. */
async function openWithKeyboard(page: Page, opener: Locator): Promise<void> {
  await opener.focus();
  await expect(opener).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Enter');
}

/** Escape closes the form and the focus is back on the button that opened it. */
async function escapeBackTo(page: Page, form: Locator, opener: Locator): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);
  await expect(opener).toBeFocused();
}

/** The field's error: the text its aria-describedby points at, the field aria-invalid. */
async function fieldError(field: Locator): Promise<string> {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  const id = (await field.getAttribute('aria-describedby'))!.split(' ').pop()!;
  return (await field.page().locator(`[id="${id}"]`).textContent()) ?? '';
}

const auth = (a: Account) => ({ authorization: `Bearer ${a.token}` });

for (const width of [1280, 375]) {
  test(`inline forms open, take the focus, close on Escape and say errors on their fields, by keyboard (${width} px)`, async ({
    page,
    newContext,
    baseURL,
  }) => {
    const { seller, orderId, serviceId } = await paidOrder(page);
    // A second product after the poster: Request payment for the poster must open under the poster.
    await page.request.post(`/v1/users/${seller.guid}/services/${serviceId}/products`, {
      data: { name: 'Mug', description: 'White', price: 900 },
      headers: auth(seller),
    });
    // Another service holds the shop link the new one will ask for.
    const slug = `taken-${Date.now().toString(36)}-${width}`;
    const holder = await page.request.post(`/v1/users/${seller.guid}/services`, {
      data: { name: 'Link holder', displayName: 'Ada', provider: 'sandbox', vendor: 'digital', account: 'sandbox_ada', slug },
      headers: auth(seller),
    });
    expect(holder.status()).toBe(201);

    const context = await newContext({ baseURL, viewport: { width, height: 900 }, bypassCSP: true });
    await signInContext(context, baseURL!, seller.token);
    const seller1 = await context.newPage();
    const errors = watchErrors(seller1);
    await seller1.goto('/account#selling');
    const selling = seller1.getByRole('region', { name: 'Selling' });
    const block = selling.getByRole('article', { name: 'Ada’s print shop' });
    await expect(block.getByText('Mug')).toBeVisible();

    // Request payment for the poster (the first of two products): under the poster's row, focus in its first field.
    const request = block.getByRole('button', { name: 'Request payment for Poster' });
    await openWithKeyboard(seller1, request);
    const requestForm = seller1.getByRole('form', { name: 'Request payment for Poster' });
    await expect(request).toHaveAttribute('aria-expanded', 'true');
    const email = requestForm.getByLabel('Their email');
    await expect(email).toBeFocused();
    const posterRow = block.getByRole('listitem').filter({ hasText: 'Poster' });
    await expect(posterRow.getByRole('form', { name: 'Request payment for Poster' })).toBeVisible();
    const formBox = (await requestForm.boundingBox())!;
    const mugBox = (await block.getByRole('listitem').filter({ hasText: 'Mug' }).boundingBox())!;
    expect(formBox.y + formBox.height).toBeLessThanOrEqual(mugBox.y + 1);
    await seller1.keyboard.type('not an address');
    await seller1.keyboard.press('Enter');
    expect(await fieldError(email)).toBe('Email: Please enter a valid email address.');
    await expect(email).toBeFocused();
    await accessible(seller1, '.inline-panel');
    await shot(seller1, `request-payment-${width}`, posterRow);
    await escapeBackTo(seller1, requestForm, request);

    // Add product: focus in the name; sending it empty says so on the name.
    const add = block.getByRole('button', { name: 'Add product' });
    await openWithKeyboard(seller1, add);
    const productForm = seller1.getByRole('form', { name: 'New product' });
    const productName = productForm.getByLabel('Product name');
    await expect(productName).toBeFocused();
    await seller1.keyboard.press('Enter');
    expect(await fieldError(productName)).toBe('Product name: Give the product a name.');
    await expect(productName).toBeFocused();
    await accessible(seller1, '.inline-panel');
    await shot(seller1, `add-product-${width}`, seller1.locator('.inline-panel'));
    await escapeBackTo(seller1, productForm, block.getByRole('button', { name: 'Add product' }));

    // New service: focus in its first field; the server refuses a shop link in use, on that field.
    const newService = selling.getByRole('button', { name: 'New service' });
    await openWithKeyboard(seller1, newService);
    const serviceForm = seller1.getByRole('form', { name: 'New service' });
    await expect(serviceForm.getByLabel('Service name')).toBeFocused();
    await seller1.keyboard.type('Second shop');
    const slugField = serviceForm.getByLabel('Shop link (optional)');
    await slugField.focus();
    // The link follows the name until typed: replace it.
    await seller1.keyboard.press('ControlOrMeta+a');
    await seller1.keyboard.type(slug);
    await seller1.keyboard.press('Enter');
    await expect(slugField).toBeFocused();
    expect(await fieldError(slugField)).toBe('That shop link is taken: choose another.');
    await expect(serviceForm.getByRole('alert').filter({ hasNotText: 'shop link' })).toHaveCount(0);
    await accessible(seller1, '.inline-panel');
    await shot(seller1, `new-service-${width}`, seller1.locator('.inline-panel'));
    await escapeBackTo(seller1, serviceForm, newService);

    // Refund: "Refund…" asks first; the question takes the focus on its way back, Escape answers it.
    await seller1.goto(`/account/orders/${orderId}`);
    const amount = seller1.getByLabel('Amount to refund (US dollars)');
    await amount.focus();
    await seller1.keyboard.press('ControlOrMeta+a');
    await seller1.keyboard.type('99');
    const refund = seller1.getByRole('button', { name: 'Refund…' });
    await refund.focus();
    await seller1.keyboard.press('Enter');
    expect(await fieldError(amount)).toBe('Amount: You can refund at most $12.50, what remains of this order.');
    await expect(amount).toBeFocused();
    await accessible(seller1, '.refund-form');
    await shot(seller1, `refund-${width}`, seller1.locator('.refund-form'));
    await seller1.keyboard.press('ControlOrMeta+a');
    await seller1.keyboard.type('5');
    await refund.focus();
    await seller1.keyboard.press('Enter');
    const confirm = seller1.getByRole('group', { name: 'Confirm the refund' });
    await expect(confirm.getByRole('button', { name: 'Keep it' })).toBeFocused();
    await accessible(seller1, '.refund-form');
    await escapeBackTo(seller1, confirm, refund);

    expect(await seller1.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // The one refusal asked for: the shop link in use (409), said on its field.
    expect(errors).toEqual(['Failed to load resource: the server responded with a status of 409 (Conflict)']);
    await context.close();
  });
}
