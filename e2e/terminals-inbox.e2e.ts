import { expect, type Locator, type Page } from '@playwright/test';
import { registerHere, signedInPage, signUp, test, watchErrors } from './helpers.js';

/**
 * "Inbox" opens where the user is looking (issue 30): in the row of the terminal whose Inbox button was
 * clicked, the focus inside it; Escape or Close gives the focus back to that button. Opened by the
 * spec's URL (/account/#/terminals/{id}/inbox) it shows in place too. At 375 px with four terminals,
 * and at 1280 px.
 */
const TERMINAL = { send: true, receive: true, active: true, platform: 'Browser (mobile)', capabilities: [], remote: false };

/** True when the box lies in the page's viewport. */
async function inViewport(page: Page, what: Locator): Promise<boolean> {
  const box = (await what.boundingBox())!;
  const { height } = page.viewportSize()!;
  return box.y >= 0 && box.y < height;
}

for (const width of [375, 1280]) {
  test(`at ${width} px: a terminal's inbox opens in its own row, the focus inside, and gives it back when closed`, async ({
    newContext,
    baseURL,
    page,
  }) => {
    const owner = await signUp(page, `inbox-here-${width}`);
    const ids: Record<string, string> = {};
    for (const label of ['Kitchen tablet', 'Office laptop', 'Car phone']) {
      const made = await page.request.post('/v1/terminals', {
        data: { ...TERMINAL, label },
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(made.status()).toBe(201);
      ids[label] = ((await made.json()) as { terminal: { id: string } }).terminal.id;
    }
    const here = await signedInPage(newContext, baseURL!, owner.token, { viewport: { width, height: 800 } });
    const errors = watchErrors(here);
    await registerHere(here, 'This phone');
    const rows = here.getByRole('list', { name: 'Your terminals' }).locator(':scope > li');
    await expect(rows).toHaveCount(4);

    // The second terminal's Inbox: its inbox opens in that row, in view, the focus on its heading.
    const second = rows.nth(1);
    const label = (await second.locator('strong').first().textContent())!.replace(' (this browser)', '');
    const opener = second.getByRole('button', { name: `Inbox of ${label}` });
    await opener.scrollIntoViewIfNeeded();
    await opener.click();
    await expect(opener).toHaveAttribute('aria-expanded', 'true');
    const inbox = second.getByRole('region', { name: `Inbox of ${label}` });
    await expect(inbox.getByText('Nothing here yet.')).toBeVisible();
    await expect(inbox.getByRole('heading', { name: `Inbox of ${label}` })).toBeFocused();
    expect(await inViewport(here, inbox.getByRole('heading', { name: `Inbox of ${label}` }))).toBe(true);
    // Right under its row's own line, before the next terminal.
    const buttonBox = (await opener.boundingBox())!;
    const inboxBox = (await inbox.boundingBox())!;
    const nextBox = (await rows.nth(2).boundingBox())!;
    expect(inboxBox.y).toBeGreaterThan(buttonBox.y);
    expect(inboxBox.y + inboxBox.height).toBeLessThanOrEqual(nextBox.y + 1);
    if (width === 375) expect(await here.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await here.screenshot({ path: test.info().outputPath(`inbox-in-row-${width}.png`), fullPage: false });

    // Escape closes it and the focus is back on the button that opened it.
    await here.keyboard.press('Escape');
    await expect(inbox).toHaveCount(0);
    await expect(opener).toBeFocused();
    await expect(opener).toHaveAttribute('aria-expanded', 'false');
    // And Close does too.
    await opener.click();
    await inbox.getByRole('button', { name: 'Close' }).click();
    await expect(inbox).toHaveCount(0);
    await expect(opener).toBeFocused();

    // The spec's inbox route opens that terminal's inbox in its row, in view.
    await here.goto(`/account/#/terminals/${ids['Car phone']!}/inbox`);
    const routed = rows.filter({ hasText: 'Car phone' }).getByRole('region', { name: 'Inbox of Car phone' });
    await expect(routed.getByText('Nothing here yet.')).toBeVisible();
    await expect(routed.getByRole('heading', { name: 'Inbox of Car phone' })).toBeFocused();
    expect(await inViewport(here, routed.getByRole('heading', { name: 'Inbox of Car phone' }))).toBe(true);
    await here.screenshot({ path: test.info().outputPath(`inbox-routed-${width}.png`), fullPage: false });
    expect(errors).toEqual([]);
    await here.context().close();
  });
}
