import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { type Account, sandboxShop, signedInPage, signUp, test, watchErrors } from './helpers.js';

/**
 * Confirmations in the page and the terminal forms by keyboard alone in Chromium against the real platform
 * (docs/web-app.md#inline-forms): registering this browser, removing another terminal and this browser,
 * cancelling a plan and deleting a card. Each confirmation opens in place of its button with Enter, has the
 * focus on its way back ("Keep …"), Escape answers it and the focus is back on its opener; going ahead
 * (Shift+Tab to the action, Enter) leaves the focus on the next item's button or the list's heading.
 * axe finds no serious or critical violation in the open confirmations. At 1280 and 375 px, with
 * screenshots in test-results/confirmations.
 */
const SHOTS = 'test-results/confirmations';

async function shot(page: Page, name: string, around: Locator): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await around.screenshot({ path: `${SHOTS}/${name}-row.png` });
}

/** No serious or critical accessibility violation inside `selector`. */
async function accessible(page: Page, selector: string): Promise<void> {
  const result = await new AxeBuilder({ page }).include(selector).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * Enter on `opener` opens its confirmation `group` with the focus on `keep`; Escape answers it and the
 * focus is back on the opener; Enter opens it again, Shift+Tab reaches the action and Enter goes ahead.
 */
async function askKeepThenGoAhead(page: Page, opener: Locator, group: Locator, keep: string, action: string, name: string) {
  await opener.focus();
  await page.keyboard.press('Enter');
  await expect(group.getByRole('button', { name: keep })).toBeFocused();
  await accessible(page, '.inline-confirm');
  await shot(page, name, group.locator('xpath=ancestor::li[1] | ancestor::section[1]').first());
  await page.keyboard.press('Escape');
  await expect(group).toHaveCount(0);
  await expect(opener).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(group.getByRole('button', { name: keep })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(group.getByRole('button', { name: action, exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
}

const auth = (a: Account) => ({ authorization: `Bearer ${a.token}` });

/** Saves a sandbox card for `payer` through the API (the card page's steps); answers its id. */
async function savedCard(page: Page, payer: Account, number: string): Promise<string> {
  const setup = await page.request.post('/v1/paymentmethods', { data: { provider: 'sandbox' }, headers: auth(payer) });
  expect(setup.status()).toBe(201);
  const { url } = ((await setup.json()) as { setup: { url: string } }).setup;
  const sessionId = /sbs_[A-Za-z0-9]+/.exec(url)![0];
  expect(
    (await page.request.post(`/v1/sandbox/sessions/${sessionId}/pay`, { data: { number, expiry: '12 / 34', cvc: '123' } })).status(),
  ).toBe(200);
  const done = await page.request.post(`/v1/paymentmethods/setup/${sessionId}/complete`, { headers: auth(payer) });
  expect(done.status()).toBe(200);
  return ((await done.json()) as { instrument: { id: string } }).instrument.id;
}

for (const width of [1280, 375]) {
  test(`register and remove terminals, cancel a plan and delete a card, by keyboard (${width} px)`, async ({
    page,
    newContext,
    baseURL,
  }) => {
    // A seller's sandbox poster and a payer with two cards and a plan for it (through the API).
    const { serviceId, productId } = await sandboxShop(page, `confirm-seller-${width}`);
    const payer = await signUp(page, `confirm-payer-${width}`);
    const first = await savedCard(page, payer, '4242 4242 4242 4242');
    await savedCard(page, payer, '4000 0000 0000 0341');
    const plan = await page.request.post('/v1/plans', {
      data: {
        service: serviceId,
        product: productId,
        interval: 'month',
        reminderDay: 1,
        start: new Date(Date.now() + 2 * 86_400_000).toISOString(),
        timeZone: 'UTC',
        paymentMethod: first,
      },
      headers: auth(payer),
    });
    expect(plan.status()).toBe(201);
    // Another terminal of the payer's account, to remove from this browser.
    const other = await page.request.post('/v1/terminals', {
      data: {
        label: 'Old tablet',
        send: true,
        receive: true,
        active: true,
        platform: 'Browser (desktop)',
        capabilities: [],
        remote: false,
      },
      headers: auth(payer),
    });
    expect(other.status()).toBe(201);

    const payerPage = await signedInPage(newContext, baseURL!, payer.token, { viewport: { width, height: 900 } });
    const errors = watchErrors(payerPage);

    // Register this browser by keyboard: its name field, then Enter.
    await payerPage.goto('/account/terminals');
    const register = payerPage.getByRole('form', { name: 'Register this browser' });
    const label = register.getByLabel('What to call this browser');
    await label.focus();
    await payerPage.keyboard.press('ControlOrMeta+a');
    await payerPage.keyboard.type('Desk browser');
    await payerPage.keyboard.press('Enter');
    const mine = payerPage.getByRole('group', { name: 'This browser' });
    await expect(mine.getByRole('heading', { name: 'This browser: Desk browser' })).toBeVisible();

    // Remove the other terminal: asked in its row; gone, the focus is on the list's heading (no other to remove).
    const terminals = payerPage.getByRole('list', { name: 'Your terminals' });
    await askKeepThenGoAhead(
      payerPage,
      terminals.getByRole('button', { name: 'Remove Old tablet' }),
      terminals.getByRole('group', { name: 'Remove Old tablet?' }),
      'Keep it',
      'Remove',
      `remove-terminal-${width}`,
    );
    await expect(terminals.getByText('Old tablet')).toHaveCount(0);
    await expect(payerPage.getByRole('heading', { name: 'Your terminals' })).toBeFocused();

    // Remove this browser: the registration form comes back with the focus on its heading.
    await askKeepThenGoAhead(
      payerPage,
      mine.getByRole('button', { name: 'Remove this browser' }),
      mine.getByRole('group', { name: 'Remove this browser?' }),
      'Keep it',
      'Remove',
      `remove-this-browser-${width}`,
    );
    await expect(register.getByRole('heading', { name: 'This browser' })).toBeFocused();

    // Cancel the plan: asked in its row; cancelled, the focus is on the plan's link.
    await payerPage.goto('/billing/plans');
    const plans = payerPage.getByRole('region', { name: 'Plans' });
    await askKeepThenGoAhead(
      payerPage,
      plans.getByRole('button', { name: 'Cancel the plan for Poster' }),
      plans.getByRole('group', { name: 'Cancel this plan?' }),
      'Keep the plan',
      'Cancel the plan',
      `cancel-plan-${width}`,
    );
    await expect(plans.getByText('cancelled', { exact: true })).toBeVisible();
    await expect(plans.getByRole('link', { name: 'Poster: $12.50 a month' })).toBeFocused();

    // Delete the first card: the focus goes to the next card's Delete; the last one's to the heading.
    await payerPage.goto('/billing/cards');
    const cards = payerPage.getByRole('region', { name: 'Payment methods' });
    await askKeepThenGoAhead(
      payerPage,
      cards.getByRole('button', { name: 'Delete Visa •••• 4242' }),
      cards.getByRole('group', { name: 'Delete Visa •••• 4242?' }),
      'Keep the card',
      'Delete the card',
      `delete-card-${width}`,
    );
    await expect(cards.getByText('Visa •••• 4242')).toHaveCount(0);
    await expect(cards.getByRole('button', { name: 'Delete Visa •••• 0341' })).toBeFocused();
    await payerPage.keyboard.press('Enter');
    await payerPage.keyboard.press('Shift+Tab');
    await payerPage.keyboard.press('Enter');
    await expect(cards.getByText('No saved cards.', { exact: false })).toBeVisible();
    await expect(payerPage.getByRole('heading', { name: 'Payment methods' })).toBeFocused();

    expect(await payerPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(errors).toEqual([]);
    await payerPage.context().close();
  });
}
