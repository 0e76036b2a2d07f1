import { expect, test, type Page } from '@playwright/test';
import { signInContext, signUp, watchErrors } from './helpers.js';

/**
 * Issue 30, "Words and honesty": pages promise only what is true (the file converter needs an account
 * and uploads files), the wallet pass page never shows configuration names and keeps its preview in
 * sight on a phone, the consent page wraps a long email at 375 px and says what the app may do in plain
 * words, and the small things (Web Crypto's getRandomValues, "Copied" going with its text, word count's
 * text box first on a phone, the barcode options explained). Each page at 1280 and 375 px, screenshots
 * in the test's output folder.
 */
const WIDTHS = [1280, 375] as const;

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

/** The page is no wider than its window (nothing overflows sideways). */
async function fitsWidth(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

async function signInWithCookies(page: Page, token: string): Promise<void> {
  await signInContext(page.context(), page.url(), token);
}

for (const width of WIDTHS) {
  test(`home, Pricing, Help and All tools say the file converter needs an account (${width} px)`, async ({ page }) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    const hero = page.locator('.hero-text');
    await expect(hero).toContainText('most need no sign-up');
    await expect(hero).toContainText('The file converter is the exception: it converts on our servers, so it needs a free account.');
    await expect(hero).not.toContainText('No sign-up, no upload');
    await fitsWidth(page);
    await shoot(page, `home-${width}`);

    await page.goto('/pricing');
    await expect(page.getByRole('main')).toContainText('Most need no account; the file converter needs a free one.');
    await expect(page.getByRole('main')).not.toContainText('your files stay on your device');
    await fitsWidth(page);
    await shoot(page, `pricing-${width}`);

    await page.goto('/help');
    await expect(page.getByRole('heading', { name: 'Which tools keep your files on your device' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText('the file converter (it needs a free account)');
    await expect(page.getByRole('heading', { name: 'Your files stay on your device' })).toHaveCount(0);
    await fitsWidth(page);
    await shoot(page, `help-${width}`);

    await page.goto('/tools/');
    await expect(page.getByRole('main')).toContainText(
      'the file converter uploads files to convert them on our servers and needs a free account',
    );

    // The converter itself, signed out: it asks for an account and promises nothing about the device.
    await page.goto('/tools/converters/files/');
    await expect(page.getByText('Sign in to convert files.')).toBeVisible();
    await expect(page.getByRole('main')).not.toContainText(/stay on your device/i);
    expect(errors).toEqual([]);
  });

  test(`the small things: Web Crypto's getRandomValues, Copied goes with its text, word count and barcode options (${width} px)`, async ({
    page,
    context,
  }) => {
    const errors = watchErrors(page);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.setViewportSize({ width, height: 900 });

    await page.goto('/tools/passwordgenerator/');
    await expect(page.getByRole('main')).toContainText("(Web Crypto's getRandomValues)");
    await expect(page.getByRole('main')).not.toContainText('CryptogetRandomValues');

    await page.goto('/tools/converters/base64/encode/');
    await page.getByLabel('Input', { exact: true }).fill('hello');
    const copy = page.getByRole('button', { name: 'Copy', exact: true }).first();
    await copy.click();
    await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
    await page.getByLabel('Input', { exact: true }).fill('');
    await expect(page.getByRole('button', { name: 'Copied' })).toHaveCount(0);

    await page.goto('/tools/wordcount/');
    const box = (await page.getByLabel('Input', { exact: true }).boundingBox())!;
    const stats = (await page.getByRole('definition').first().boundingBox())!;
    if (width === 375) expect(box.y).toBeLessThan(stats.y);
    else expect(stats.y).toBeLessThan(box.y);
    await fitsWidth(page);
    await shoot(page, `wordcount-${width}`);

    await page.goto('/tools/displaybarcode/');
    const options = page.getByLabel('More options');
    await expect(options).toHaveAttribute('placeholder', 'none');
    await expect(page.getByText('Settings of the barcode engine (BWIPP), written as name=value')).toBeVisible();
    expect(errors).toEqual([]);
  });

  test(`the wallet pass page shows no configuration names and keeps the preview in sight (${width} px)`, async ({ page }) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    const account = await signUp(page, `words-wallet-${width}`);
    await signInWithCookies(page, account.token);
    const status = (await (await page.request.get('/v1/passes/wallets')).json().catch(() => null)) as {
      google?: { configured: boolean };
      apple?: { configured: boolean };
    } | null;
    await page.goto('/tools/wallet/google/');
    await expect(page.getByLabel('Card title')).toBeVisible();
    await expect(page.locator('body')).not.toContainText(/GOOGLE_WALLET_|APPLE_PASS_/);
    if (status && status.google?.configured === false && status.apple?.configured === false) {
      await expect(page.getByRole('note').filter({ hasText: 'Adding to a wallet is not available on this site;' })).toBeVisible();
    }
    // The right column scrolls with the page, never on its own.
    expect(await page.locator('.wallet-side').evaluate((el) => getComputedStyle(el).overflowY)).toBe('visible');
    // Editing a field far down: the preview stays in the window on a phone.
    await page.getByLabel('Alternate text').fill('Member 0042');
    await page.getByLabel('Alternate text').scrollIntoViewIfNeeded();
    const preview = page.getByRole('figure', { name: 'Preview' });
    if (width === 375) {
      const shown = (await preview.boundingBox())!;
      expect(shown.y).toBeGreaterThanOrEqual(0);
      expect(shown.y + shown.height).toBeLessThanOrEqual(800);
      await expect(preview).toContainText('Member 0042');
      await page.getByRole('button', { name: 'Hide the preview' }).click();
      await expect(preview).toBeHidden();
      await page.getByRole('button', { name: 'Show the preview' }).click();
      await expect(preview).toBeVisible();
    } else {
      await expect(page.getByRole('button', { name: 'Hide the preview' })).toBeHidden();
    }
    await page.screenshot({ path: test.info().outputPath(`wallet-editing-${width}.png`) });
    await fitsWidth(page);
    await shoot(page, `wallet-${width}`);
    expect(errors).toEqual([]);
  });

  test(`the consent page wraps a long email and says what the app may do in plain words (${width} px)`, async ({ page }) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    const developer = await signUp(page, `words-dev-${width}`);
    const registered = await page.request.post('/v1/oauth2/apps', {
      headers: { authorization: `Bearer ${developer.token}` },
      data: { name: 'Shelf scanner', redirectUris: ['https://shelf.example.com/callback'], scopes: ['openid', 'profile', 'terminals'] },
    });
    expect(registered.status()).toBe(201);
    const { app } = (await registered.json()) as { app: { id: string } };
    // Who made it and its links, given after registration through the Apps section's Edit form.
    await signInWithCookies(page, developer.token);
    await page.goto('/account#apps');
    const row = page.getByRole('listitem').filter({ hasText: app.id });
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit Shelf scanner' });
    await expect(edit.getByLabel('What to call the app')).toBeFocused();
    await edit.getByLabel('Made by (a person or a company)').fill('Shelf Tools Ltd');
    await edit.getByLabel('Contact for users (an email address or a URL)').fill('support@shelf.example.com');
    await edit.getByLabel('Privacy policy (http or https)').fill('https://shelf.example.com/privacy');
    await edit.getByLabel('Redirect URIs (one per line)').fill('http://shelf.example.com/callback');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    // Refused as at registration, on the field it concerns.
    await expect(edit.getByLabel('Redirect URIs (one per line)')).toHaveAttribute('aria-invalid', 'true');
    await expect(edit).toContainText('Details: VALIDATION_FAILED - redirectUris: http://shelf.example.com/callback must be https');
    await shoot(page, `app-edit-${width}`);
    await edit.getByLabel('Redirect URIs (one per line)').fill('https://shelf.example.com/callback');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toHaveCount(0);
    await expect(row.getByRole('button', { name: 'Edit' })).toBeFocused();
    await page.context().clearCookies();

    const user = await signUp(page, `a-very-long-mailbox-name-for-wrapping-${width}`);
    expect(user.token).toBeTruthy();
    await signInWithCookies(page, user.token);
    const url = new URL('/v1/oauth2/auth', page.url());
    url.search = new URLSearchParams({
      client_id: app.id,
      redirect_uri: 'https://shelf.example.com/callback',
      response_type: 'code',
      scope: 'openid profile terminals',
      state: 's',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    await page.goto(url.toString());
    await expect(page.getByRole('heading', { name: 'Allow Shelf scanner?' })).toBeVisible();
    await expect(page.getByRole('main').getByText(user.email)).toBeVisible();
    await expect(page.getByRole('main')).toContainText('Made by Shelf Tools Ltd (contact: support@shelf.example.com).');
    await expect(page.getByRole('list', { name: 'Links of Shelf scanner' }).getByRole('link', { name: 'Privacy policy' })).toHaveAttribute(
      'href',
      'https://shelf.example.com/privacy',
    );
    await expect(page.locator('.consent-scopes').getByRole('listitem')).toContainText([
      /Know that it is you when you sign in to it/,
      /See and change your name, time zone and email address/,
      /send them links and read what they received/,
    ]);
    await fitsWidth(page);
    await shoot(page, `consent-${width}`);
    // The one refused save above answered 400 on purpose.
    expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
  });
}
