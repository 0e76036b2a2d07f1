import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { decodeImage } from './barcodes.js';
import { clipboardText, watchErrors } from './helpers.js';

/**
 * The Google Wallet pass page against the real platform: the designer and its live preview, pictures
 * checked in the browser, the JSON export of the shared builders, the draft kept over a reload; signed
 * in, saving (with a logo), the list of passes sorted and paged, reopening, editing and deleting, and
 * what the page says about wallets the site is not set up for (or the save link when it is).
 */
const PATH = '/tools/wallet/google/';

interface Exported {
  genericClass: { id: string };
  genericObject: {
    id: string;
    classId: string;
    cardTitle: { defaultValue: { value: string } };
    header: { defaultValue: { value: string } };
    subheader?: { defaultValue: { value: string } };
    textModulesData?: Array<{ header: string; body: string }>;
    barcode?: { type: string; value: string; alternateText?: string };
    hexBackgroundColor: string;
    logo?: { sourceUri: { uri: string } };
    heroImage?: { sourceUri: { uri: string } };
  };
}

interface WalletConfig {
  google: { configured: boolean };
  apple: { configured: boolean };
}

async function picture(width: number, height: number, background: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}

async function signIn(page: Page): Promise<string> {
  const email = `wallet-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await page.request.post('/v1/users', { data: { email, password: 'wallet passes for everyone' } });
  expect(res.ok()).toBe(true);
  const { token } = (await res.json()) as { token: string };
  const url = new URL(page.url() === 'about:blank' ? 'http://localhost' : page.url());
  await page.context().addCookies([
    { name: 'token', value: token, domain: url.hostname, path: '/' },
    { name: 'loggedIn', value: 'true', domain: url.hostname, path: '/' },
  ]);
  return token;
}

async function createPass(request: APIRequestContext, token: string, fields: Record<string, unknown>): Promise<string> {
  const id = crypto.randomUUID();
  const res = await request.post(`/v1/passes/${id}`, {
    headers: { authorization: `Bearer ${token}` },
    multipart: { pass: JSON.stringify({ textRows: [], backgroundColor: '#334155', ...fields }) },
  });
  expect(res.status()).toBe(201);
  return id;
}

/** The text of the preview card's rows, in order ("label: value"). */
function previewRows(page: Page) {
  return page
    .getByTestId('wallet-card')
    .locator('.wallet-row')
    .evaluateAll((rows) => rows.map((r) => `${r.querySelector('dt')?.textContent}: ${r.querySelector('dd')?.textContent}`));
}

async function exported(page: Page): Promise<{ name: string; json: Exported; text: string }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download JSON', exact: true }).click(),
  ]);
  const text = await readFile((await download.path())!, 'utf8');
  return { name: download.suggestedFilename(), json: JSON.parse(text) as Exported, text };
}

test('designs a pass signed out: live preview, bad data and pictures explained, JSON export, the draft kept over a reload', async ({
  page,
  context,
}) => {
  test.setTimeout(60_000);
  const errors = watchErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(PATH);
  await expect(page.getByRole('heading', { level: 1, name: 'Google Wallet pass' })).toBeVisible();
  const prompt = page.getByRole('note').filter({ hasText: 'Sign in to save this pass' });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
    'href',
    /^\/login\?next=%2Ftools%2Fwallet%2Fgoogle%2F#!\/login$/,
  );
  await expect(page.getByRole('heading', { name: 'My passes' })).toHaveCount(0);

  const card = page.getByTestId('wallet-card');
  await page.getByRole('textbox', { name: 'Card title' }).fill('Corner Gym');
  await page.getByRole('textbox', { name: 'Header', exact: true }).fill('Membership');
  await page.getByLabel('Subheader').fill('Valid through 2026');
  await expect(card).toContainText('Corner Gym');
  await expect(card.locator('.wallet-header')).toHaveText('Membership');
  await expect(card.locator('.wallet-subheader')).toHaveText('Valid through 2026');

  // A light background gets dark text; the colour picker follows the typed colour.
  await page.getByLabel('Background colour', { exact: true }).fill('#fde68a');
  await expect(card).toHaveCSS('background-color', 'rgb(253, 230, 138)');
  await expect(card).toHaveCSS('color', 'rgb(0, 0, 0)');
  await expect(page.getByLabel('Background colour picker')).toHaveValue('#fde68a');
  await page.getByLabel('Background colour', { exact: true }).fill('#12');
  await expect(page.getByText('Use a colour like #4f46e5')).toBeVisible();
  await page.getByLabel('Background colour', { exact: true }).fill('#1e3a8a');
  await expect(card).toHaveCSS('color', 'rgb(255, 255, 255)');

  // Rows: add, fill, move up (the focus stays on the moved row's buttons), remove.
  expect(await previewRows(page)).toEqual(['Points: 120', 'Level: Gold']);
  await page.getByRole('button', { name: 'Add row' }).click();
  await expect(page.getByLabel('Row 3 label')).toBeFocused();
  await page.getByLabel('Row 3 label').fill('Locker');
  await page.getByLabel('Row 3 value').fill('B12');
  await page.getByRole('button', { name: 'Move row 3 up' }).click();
  await expect(page.getByRole('button', { name: 'Move row 2 up' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Move row 1 down' })).toBeFocused();
  await expect.poll(() => previewRows(page)).toEqual(['Locker: B12', 'Points: 120', 'Level: Gold']);
  await page.getByRole('button', { name: 'Remove row 3' }).click();
  await expect.poll(() => previewRows(page)).toEqual(['Locker: B12', 'Points: 120']);
  await page.getByLabel('Row 2 value').fill('');
  await expect(page.getByText('Row 2 needs a value (the label is optional).')).toBeVisible();
  await page.getByLabel('Row 2 value').fill('340');

  // The barcode: an EAN-13 that is not one says why; the right one is drawn and scans.
  await page.getByLabel('Barcode type').selectOption('ean13');
  await page.getByLabel('Barcode value').fill('12345');
  await expect(page.getByText('EAN-13 must be 12 or 13 digits')).toBeVisible();
  await expect(page.getByLabel('Barcode value')).toHaveAttribute('aria-invalid', 'true');
  await expect(card.getByText('The barcode cannot be drawn')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download JSON' })).toBeDisabled();
  await page.getByLabel('Barcode value').fill('9520123456781');
  await expect(page.getByText(/check digit should be 8/)).toBeVisible();
  await page.getByLabel('Barcode value').fill('9520123456788');
  await page.getByLabel('Alternate text').fill('952 0123 456788');
  const drawn = card.getByRole('img', { name: 'Barcode of 9520123456788' });
  await expect(drawn).toBeVisible();
  // What the preview draws scans (read back from its image; polled, as a redraw replaces the image).
  await expect
    .poll(async () => {
      const png = await drawn
        .evaluate((img: HTMLImageElement) => {
          // The page's content security policy keeps fetch() off blob: URLs; a canvas copies the picture.
          const canvas = document.createElement('canvas');
          canvas.width = img.naturalWidth;
          canvas.height = img.naturalHeight;
          canvas.getContext('2d')!.drawImage(img, 0, 0);
          return canvas.toDataURL('image/png').slice('data:image/png;base64,'.length);
        })
        .catch(() => '');
      return png ? decodeImage(Buffer.from(png, 'base64')) : [];
    })
    .toEqual([{ format: 'EAN13', text: '9520123456788' }]);
  await expect(card).toContainText('952 0123 456788');

  // Pictures: another type and a file that only claims to be a PNG are refused with the reason.
  const logoInput = page.getByLabel('Choose logo');
  await logoInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
  await expect(page.getByRole('alert')).toHaveText('Logo: "notes.txt" is not a PNG, JPEG, WebP or GIF picture (its type is text/plain).');
  await logoInput.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('these are notes, not a picture') });
  await expect(page.getByRole('alert')).toHaveText('Logo: "fake.png" is not a picture this browser can read.');
  await logoInput.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await picture(200, 200, '#f97316') });
  await expect(page.getByRole('img', { name: 'Logo thumbnail' })).toBeVisible();
  await expect(page.getByText('200 × 200 px is small for a logo')).toBeVisible();
  await expect(card.getByRole('img', { name: 'Logo', exact: true })).toBeVisible();
  // The hero image is pasted into its zone (clicked first, so the paste goes there and not to the logo).
  const heroZone = page.getByRole('group', { name: 'Hero image (optional)' }).locator('.file-drop');
  await heroZone.click({ position: { x: 10, y: 10 } });
  const hero = (await picture(1032, 336, '#22c55e')).toString('base64');
  await page.evaluate((b64) => {
    const data = new DataTransfer();
    data.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'hero.png', { type: 'image/png' }));
    document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
  }, hero);
  await expect(page.getByRole('img', { name: 'Hero image thumbnail' })).toBeVisible();
  await expect(card.getByRole('img', { name: 'Hero image' })).toBeVisible();

  // The export: Google's class and object with the fields as typed; no image URLs before saving.
  const { name, json, text } = await exported(page);
  expect(name).toBe('corner-gym-membership.google-wallet.json');
  expect(json.genericClass.id).toBe('ISSUER_ID.tinkerdesk_generic');
  expect(json.genericObject).toMatchObject({
    classId: 'ISSUER_ID.tinkerdesk_generic',
    cardTitle: { defaultValue: { value: 'Corner Gym' } },
    header: { defaultValue: { value: 'Membership' } },
    subheader: { defaultValue: { value: 'Valid through 2026' } },
    textModulesData: [
      { header: 'Locker', body: 'B12' },
      { header: 'Points', body: '340' },
    ],
    barcode: { type: 'EAN_13', value: '9520123456788', alternateText: '952 0123 456788' },
    hexBackgroundColor: '#1e3a8a',
  });
  expect(json.genericObject.id).toMatch(/^ISSUER_ID\.[0-9a-f-]{36}$/);
  expect(json.genericObject.logo).toBeUndefined();
  expect(json.genericObject.heroImage).toBeUndefined();
  await page.getByRole('button', { name: 'Copy JSON' }).click();
  await expect.poll(() => clipboardText(page)).toBe(text);

  // A reload keeps the draft, pictures included.
  await page.waitForTimeout(600);
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Card title' })).toHaveValue('Corner Gym');
  await expect(page.getByLabel('Row 1 label')).toHaveValue('Locker');
  await expect(page.getByLabel('Barcode value')).toHaveValue('9520123456788');
  await expect(page.getByRole('img', { name: 'Logo thumbnail' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Hero image thumbnail' })).toBeVisible();
  await page.getByRole('button', { name: 'Remove hero image' }).click();
  await expect(card.getByRole('img', { name: 'Hero image' })).toHaveCount(0);

  // At 375 px wide nothing runs off the side.
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(card).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(errors).toEqual([]);
});

test('signed in: save with a logo, list sorted and paged, reopen, edit, delete; wallets not set up are explained', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await page.goto(baseURL!);
  const token = await signIn(page);
  const wallets = (await (await page.request.get('/v1/passes/wallets')).json()) as WalletConfig;
  // Which wallets work, and nothing of the server's configuration (that is in the operator's log).
  expect(wallets).toEqual({ success: true, google: { configured: expect.any(Boolean) }, apple: { configured: expect.any(Boolean) } });
  // Eleven passes made through the API, so the list has two pages once the page saves one more.
  const made: string[] = [];
  for (let i = 1; i <= 11; i++) {
    made.push(await createPass(page.request, token, { cardTitle: `Club ${String(i).padStart(2, '0')}`, header: `Card ${i}` }));
  }

  await page.goto(PATH);
  const list = page.getByRole('list', { name: 'My passes' });
  await expect(page.getByText('11 passes')).toBeVisible({ timeout: 15_000 });
  await expect(list.getByRole('listitem')).toHaveCount(10);

  // Save a new pass with a logo: created (201), then the same id is updated.
  await page.getByRole('textbox', { name: 'Card title' }).fill('Aardvark Books');
  await page.getByRole('textbox', { name: 'Header', exact: true }).fill('Reader card');
  await page
    .getByLabel('Choose logo')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await picture(700, 700, '#0ea5e9') });
  await expect(page.getByRole('img', { name: 'Logo thumbnail' })).toBeVisible();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved "Reader card" as a new pass.')).toBeVisible();
  await expect(page.getByText('12 passes')).toBeVisible();
  await expect(page.getByText('Saved with the pass')).toBeVisible();
  const logoSrc = await page.getByRole('img', { name: 'Logo thumbnail' }).getAttribute('src');
  expect(logoSrc).toMatch(/\/v1\/passes\/images\/[0-9a-f]{64}\.png$/);
  const logo = await page.request.get(logoSrc!);
  expect(logo.headers()['content-type']).toBe('image/png');
  expect((await sharp(await logo.body()).metadata()).width).toBe(660);
  // The export now names the saved picture by its URL.
  const { json } = await exported(page);
  expect(json.genericObject.logo?.sourceUri.uri).toBe(new URL(logoSrc!, baseURL).href);

  // Wallets the site is not set up for: one sentence says so and offers what works; no configuration name shows.
  const actions = page.getByRole('region', { name: 'Save and add to a wallet' });
  const unavailable = actions
    .getByRole('note')
    .filter({ hasText: /^Adding to (a wallet|Google Wallet|Apple Wallet) is not available on this site;/ });
  if (!wallets.google.configured && !wallets.apple.configured) {
    await expect(unavailable).toHaveText(
      'Adding to a wallet is not available on this site; you can still save the pass here and download it in Google’s format with “Download JSON” below.',
    );
  }
  await expect(page.locator('body')).not.toContainText(/GOOGLE_WALLET_|APPLE_PASS_|APPLE_TEAM_ID|APPLE_WWDR_/);
  if (!wallets.google.configured) {
    await expect(unavailable).toBeVisible();
    await expect(page.getByRole('link', { name: 'Add to Google Wallet' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Download JSON' })).toBeEnabled();
  } else {
    await expect(page.getByRole('link', { name: 'Add to Google Wallet' })).toHaveAttribute(
      'href',
      /^https:\/\/pay\.google\.com\/gp\/v\/save\//,
    );
  }
  if (!wallets.apple.configured) {
    await expect(unavailable).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add to Apple Wallet' })).toHaveCount(0);
  }

  // Sorting by card title, A to Z, then paging.
  await page.getByLabel('Sort by').selectOption('cardTitle');
  await page.getByLabel('Order').selectOption('ASC');
  await expect(list.getByRole('listitem').first()).toContainText('Aardvark Books · Reader card');
  await expect(list.getByRole('listitem').nth(1)).toContainText('Club 01 · Card 1');
  const pages = page.getByRole('navigation', { name: 'My passes pages' });
  await expect(pages).toContainText('1–10 of 12');
  await pages.getByRole('button', { name: 'Older' }).click();
  await expect(pages).toContainText('11–12 of 12');
  await expect(list.getByRole('listitem')).toHaveText([/Club 10 · Card 10/, /Club 11 · Card 11/]);
  await page.getByLabel('Order').selectOption('DESC');
  await expect(list.getByRole('listitem').first()).toContainText('Club 11 · Card 11');
  await expect(pages).toContainText('1–10 of 12');

  // Reopen a pass made through the API, edit it, save: the same pass changes.
  await list.getByRole('button', { name: 'Open Club 11 Card 11' }).click();
  await expect(page.getByRole('textbox', { name: 'Card title' })).toHaveValue('Club 11');
  await expect(page.getByRole('textbox', { name: 'Header', exact: true })).toHaveValue('Card 11');
  await expect(page.getByRole('checkbox', { name: 'Show a barcode on the pass' })).not.toBeChecked();
  await page.getByRole('textbox', { name: 'Header', exact: true }).fill('Card eleven');
  await expect(page.getByText('This pass has unsaved changes.')).toBeVisible();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved the changes to "Card eleven".')).toBeVisible();
  await expect(list.getByRole('listitem').first()).toContainText('Club 11 · Card eleven');
  await expect(page.getByText('12 passes')).toBeVisible();
  const again = await page.request.get(`/v1/passes/${made[10]}`, { headers: { authorization: `Bearer ${token}` } });
  expect(((await again.json()) as { pass: { header: string } }).pass.header).toBe('Card eleven');

  // Opening another pass with unsaved changes asks first.
  await page.getByLabel('Subheader').fill('changed');
  await list.getByRole('button', { name: 'Open Club 10 Card 10' }).click();
  await expect(list.getByRole('group', { name: 'Open Card 10?' })).toBeVisible();
  await list.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page.getByLabel('Subheader')).toHaveValue('changed');

  // Delete after a confirm.
  await list.getByRole('button', { name: 'Delete Club 10 Card 10' }).click();
  const confirm = list.getByRole('group', { name: 'Delete Card 10?' });
  await expect(confirm).toContainText('Delete this pass?');
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText('11 passes')).toBeVisible();
  await expect(list.getByText('Club 10 · Card 10')).toHaveCount(0);
  const gone = await page.request.get(`/v1/passes/${made[9]}`, { headers: { authorization: `Bearer ${token}` } });
  expect(gone.status()).toBe(404);
  expect(errors).toEqual([]);
});

test('a new account sees an empty list', async ({ page, baseURL }) => {
  const errors = watchErrors(page);
  await page.goto(baseURL!);
  await signIn(page);
  await page.goto(PATH);
  await expect(page.getByText('No passes yet.')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Not saved yet.')).toBeVisible();
  expect(errors).toEqual([]);
});
