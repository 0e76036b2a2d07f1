import { expect, test, type Page } from '@playwright/test';
import { parseWifi } from '../libs/tools/src/barcode.js';
import { SYMBOLOGIES } from '../libs/tools/src/barcode-symbols.js';
import { decodeImage } from './barcodes.js';
import { downloaded, watchErrors } from './helpers.js';

// The barcode creator and the Wi-Fi code through the real UI. What they draw is read back with
// ZXing-C++ in the test: the downloads really scan, with the data typed.

async function preview(page: Page) {
  const img = page.getByRole('region', { name: 'Output' }).getByRole('img');
  await expect(img).toBeVisible();
  return img;
}

test('Barcode creator: QR Code and EAN-13 that scan, settings in the URL, PNG and SVG downloads, bad data explained', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/displaybarcode/');
  const input = page.getByLabel('Input', { exact: true });
  await expect(input).toHaveValue('https://tinkerdesk.dev');
  await preview(page);

  await input.fill('Grüße from Tinkerdesk 👋');
  await page.getByLabel('Error correction').selectOption('H');
  await page.getByLabel('Module size (px)').fill('6');
  await expect(page).toHaveURL(/ec=H/);
  await expect(page).toHaveURL(/scale=6/);
  await expect(page.getByText(/px PNG$/)).toBeVisible();
  let png = await downloaded(page, 'Download PNG');
  expect(png.name).toBe('qrcode.png');
  expect(await decodeImage(png.bytes)).toEqual([{ format: 'QRCode', text: 'Grüße from Tinkerdesk 👋' }]);
  const svg = await downloaded(page, 'Download SVG');
  expect(svg.name).toBe('qrcode.svg');
  expect(svg.bytes.toString()).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);

  // A linear code: letters do not fit an EAN-13; the right digits do, and scan.
  await page.getByLabel('Type').selectOption('ean13');
  // The typed data stays when the type changes (it is yours); here it does not fit.
  await expect(input).toHaveValue('Grüße from Tinkerdesk 👋');
  await expect(page.getByRole('alert')).toBeVisible();
  await input.fill('ABC');
  await expect(page.getByRole('alert')).toHaveText('EAN-13 must be 12 or 13 digits');
  await expect(page.getByRole('region', { name: 'Output' }).getByRole('img')).toHaveCount(0);
  await input.fill('4006381333931');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await preview(page);
  await expect(page.getByLabel('Human-readable text')).toBeChecked();
  png = await downloaded(page, 'Download PNG');
  expect(await decodeImage(png.bytes)).toEqual([{ format: 'EAN13', text: '4006381333931' }]);
  // A wrong check digit: the message says which digit is right.
  await input.fill('4006381333932');
  await expect(page.getByRole('alert')).toHaveText('The EAN-13 check digit should be 1, not 2 (4006381333931)');
  await page.getByLabel('Type').selectOption('upca');
  await input.fill('036000291453');
  await expect(page.getByRole('alert')).toHaveText('The UPC check digit should be 2, not 3 (036000291452)');
  await page.getByLabel('Type').selectOption('isbn');
  await input.fill('978-1-56619-909-3');
  await expect(page.getByRole('alert')).toHaveText('The ISBN-13 check digit should be 4, not 3 (978-1-56619-909-4)');
  await input.fill('978-1-56619-909-4');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByLabel('Type').selectOption('ean13');

  // Settings come back with the link; data does not go into it.
  await page.reload();
  await expect(page.getByLabel('Type')).toHaveValue('ean13');
  await expect(page).not.toHaveURL(/4006381333932/);

  await page.getByLabel('More options').fill('bad-option');
  await expect(page.getByRole('alert').first()).toHaveText('"bad-option" is not an option: write name or name=value');
  expect(errors).toEqual([]);
});

test('Barcode creator: every one of the 111+ symbologies draws its sample data', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await page.goto('/tools/displaybarcode/');
  const failed: string[] = [];
  for (const symbol of SYMBOLOGIES) {
    await page.getByLabel('Type').selectOption(symbol.bcid);
    const outcome = page.getByRole('region', { name: 'Output' }).getByRole('img', { name: new RegExp(`^${escape(symbol.desc)} barcode`) });
    try {
      await expect(outcome).toBeVisible({ timeout: 5000 });
    } catch {
      failed.push(`${symbol.bcid}: ${(await page.getByRole('alert').allTextContents()).join(' ')}`);
    }
  }
  expect(failed).toEqual([]);
  expect(errors).toEqual([]);
});

test('Wi-Fi QR code: escaped fields that scan back, validation, printable card, nothing secret in the URL', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/displaybarcode/wifi/');
  await page.getByLabel('Network name (SSID)').fill('Home;Net, "5G"');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await expect(page.getByRole('alert')).toHaveText('A WPA password has 8 to 63 characters');
  // The error belongs to the password: under it, named by it; the SSID is fine; the output says why there is no code.
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription('A WPA password has 8 to 63 characters');
  await expect(page.getByLabel('Network name (SSID)')).not.toHaveAttribute('aria-invalid', 'true');
  const passwordBox = (await page.getByLabel('Password', { exact: true }).boundingBox())!;
  const alertBox = (await page.getByRole('alert').boundingBox())!;
  expect(alertBox.y).toBeGreaterThan(passwordBox.y);
  await expect(page.getByText('Enter the network name to make its code.')).toHaveCount(0);
  await expect(page.getByText('The code appears once the error above is fixed.')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('p:ss,word;"1\\');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByLabel('Hidden network').check();
  await expect(page).toHaveURL(/hidden=1/);
  expect(page.url()).not.toContain('Home');
  await preview(page);

  const card = page.getByLabel('Printable card');
  await expect(card).toContainText('Home;Net, "5G"');
  await expect(card).toContainText('p:ss,word;"1\\');
  await expect(page.getByRole('button', { name: 'Print card' })).toBeVisible();

  const png = await downloaded(page, 'Download PNG');
  const [code] = await decodeImage(png.bytes);
  expect(code?.format).toBe('QRCode');
  expect(code?.text).toBe('WIFI:T:WPA;S:Home\\;Net\\, \\"5G\\";P:p\\:ss\\,word\\;\\"1\\\\;H:true;;');
  expect(parseWifi(code!.text)).toEqual({ ssid: 'Home;Net, "5G"', password: 'p:ss,word;"1\\', security: 'WPA', hidden: true });

  await page.getByLabel('Security').selectOption('nopass');
  await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
  const open = await downloaded(page, 'Download PNG');
  expect((await decodeImage(open.bytes))[0]?.text).toBe('WIFI:T:nopass;S:Home\\;Net\\, \\"5G\\";H:true;;');
  expect(errors).toEqual([]);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
