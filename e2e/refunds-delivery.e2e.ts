import { expect, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { type Account, type NewContext, paidOrder, signInContext, test, watchErrors } from './helpers.js';

/**
 * Delivery and partial refunds in Chromium against the real platform: the seller fulfils a paid order
 * with a note holding a link; both order pages show the note (the link clickable) and the date; the
 * seller refunds part (the amount checked on the field, then confirmed), then the rest; the buyer's
 * page, the receipt and both timelines show each refund (negative amounts). At 1280 and 375 px, with
 * screenshots in test-results/refunds-delivery.
 */
const SHOTS = 'test-results/refunds-delivery';
const LLL = /[A-Z][a-z]+ \d{1,2}, \d{4} \d{1,2}:\d{2} (AM|PM)/;

async function asUser(newContext: NewContext, baseURL: string, account: Account, width: number): Promise<Page> {
  const context = await newContext({ baseURL, viewport: { width, height: 900 } });
  await signInContext(context, baseURL, account.token);
  return context.newPage();
}

async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function fitsWidth(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

for (const width of [1280, 375]) {
  test(`fulfil with a note, refund part then the rest: both pages, the receipt and the timelines show it (${width} px)`, async ({
    page,
    newContext,
    baseURL,
  }) => {
    const { seller, buyer, orderId } = await paidOrder(page);
    const sellerPage = await asUser(newContext, baseURL!, seller, width);
    const errors = watchErrors(sellerPage);
    await sellerPage.goto(`/account/orders/${orderId}`);
    await sellerPage.getByLabel(/Note to the buyer/).fill('Your files: https://example.com/files/poster.pdf. Thank you!');
    await sellerPage.getByRole('button', { name: 'Mark fulfilled' }).click();
    const delivery = sellerPage.getByRole('region', { name: 'Delivery' });
    await expect(delivery.getByRole('link', { name: 'https://example.com/files/poster.pdf' })).toHaveAttribute(
      'href',
      'https://example.com/files/poster.pdf',
    );
    await expect(delivery.getByRole('link', { name: 'https://example.com/files/poster.pdf' })).toHaveAttribute('rel', /noopener/);
    await expect(delivery.getByText(LLL)).toBeVisible();

    // The refund form: prefilled with all that remains; a wrong amount is said on the field.
    const amount = sellerPage.getByLabel('Amount to refund (US dollars)');
    await expect(amount).toHaveValue('12.50');
    await expect(sellerPage.getByText('USD', { exact: true })).toBeVisible();
    await amount.fill('20');
    await expect(sellerPage.getByText('You can refund at most $12.50, what remains of this order.')).toBeVisible();
    await amount.fill('five');
    await expect(sellerPage.getByText('Enter the amount in dollars and cents, like 5.00.')).toBeVisible();
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    await amount.fill('5');
    await sellerPage.getByLabel('Reason for the buyer (optional)').fill('One corner was bent');
    await sellerPage.getByRole('button', { name: 'Refund…' }).click();
    await expect(sellerPage.getByText('Refund $5.00 to the buyer? This cannot be undone.')).toBeVisible();
    await sellerPage.getByRole('button', { name: 'Refund $5.00' }).click();
    const history = sellerPage.getByRole('region', { name: 'Delivery and refunds' });
    await expect(history.getByText('−$5.00')).toBeVisible();
    await expect(history.getByText('Reason: One corner was bent')).toBeVisible();
    await expect(amount).toHaveValue('7.50');
    await expect(sellerPage.getByText('Paid $12.50, refunded $5.00 so far: up to $7.50 can be refunded.')).toBeVisible();
    await fitsWidth(sellerPage, width);
    await shot(sellerPage, `seller-partly-refunded-${width}`);

    // The buyer's page: the note (a link), the dates, the refund.
    const buyerPage = await asUser(newContext, baseURL!, buyer, width);
    await buyerPage.goto(`/orders/${orderId}`);
    const buyerHistory = buyerPage.getByRole('region', { name: 'Delivery and refunds' });
    await expect(buyerHistory.getByRole('link', { name: 'https://example.com/files/poster.pdf' })).toBeVisible();
    await expect(buyerHistory.getByText('Fulfilled on')).toBeVisible();
    await expect(buyerHistory.getByText('−$5.00')).toBeVisible();
    await expect(buyerHistory.getByText('$5.00 of $12.50')).toBeVisible();
    await expect(buyerPage.getByRole('region', { name: 'Receipt' }).getByText('$5.00', { exact: true })).toBeVisible();
    await fitsWidth(buyerPage, width);
    await shot(buyerPage, `buyer-partly-refunded-${width}`);

    // The rest: all that remains, confirmed.
    await sellerPage.getByRole('button', { name: 'Refund…' }).click();
    await sellerPage.getByRole('button', { name: 'Refund $7.50' }).click();
    await expect(sellerPage.getByText('Refunded', { exact: true }).first()).toBeVisible();
    await expect(sellerPage.getByLabel('Amount to refund (US dollars)')).toHaveCount(0);
    await expect(sellerPage.getByRole('region', { name: 'Delivery and refunds' }).getByText('$12.50 of $12.50 (all of it)')).toBeVisible();
    await shot(sellerPage, `seller-refunded-${width}`);

    await buyerPage.goto(`/orders/${orderId}/receipt`);
    await expect(buyerPage.getByText('Refunded', { exact: true })).toBeVisible();
    await expect(buyerPage.getByText(/^Refunded \$5\.00 on /)).toBeVisible();
    await expect(buyerPage.getByText(/^Refunded \$7\.50 on /)).toBeVisible();
    await expect(buyerPage.getByText(/Refunded in full: \$12\.50 · Net paid: \$0\.00/)).toBeVisible();
    await fitsWidth(buyerPage, width);
    await shot(buyerPage, `receipt-refunded-${width}`);

    // Both timelines: each refund as a negative amount.
    for (const [who, p] of [
      ['buyer', buyerPage],
      ['seller', sellerPage],
    ] as const) {
      await expect
        .poll(
          async () => {
            await p.goto('/billing/timeline');
            const timeline = p.getByRole('region', { name: 'Timeline' });
            await timeline
              .getByText('Refunded $7.50 of $12.50 for Poster')
              .waitFor({ timeout: 2000 })
              .catch(() => undefined);
            return timeline.getByText('-$7.50').count();
          },
          { timeout: 15_000 },
        )
        .toBe(1);
      const timeline = p.getByRole('region', { name: 'Timeline' });
      await expect(timeline.getByText('Refunded $5.00 of $12.50 for Poster')).toBeVisible();
      await expect(timeline.getByText('-$5.00')).toBeVisible();
      await fitsWidth(p, width);
      await shot(p, `timeline-${who}-${width}`);
    }
    expect(errors).toEqual([]);
    await buyerPage.context().close();
    await sellerPage.context().close();
  });
}
