import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { readFile } from 'node:fs/promises';
import { docx, watchErrors } from './helpers.js';

/**
 * The file converter page against the real platform: signed out it explains and asks to sign in;
 * signed in, a DOCX becomes a PDF and a PNG a WebP with progress shown, both download, and the list
 * of recent conversions offers them again.
 */
const PATH = '/tools/converters/files/';

function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-converter-'));
  writeFileSync(join(dir, 'a.pdf'), pdf);
  return execFileSync('pdftotext', [join(dir, 'a.pdf'), '-'], { encoding: 'utf8' });
}

async function signIn(page: Page): Promise<void> {
  const email = `converter-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await page.request.post('/v1/users', { data: { email, password: 'converting on the page' } });
  const { token } = (await res.json()) as { token: string };
  const url = new URL(page.url() === 'about:blank' ? 'http://localhost' : page.url());
  await page.context().addCookies([
    { name: 'token', value: token, domain: url.hostname, path: '/' },
    { name: 'loggedIn', value: 'true', domain: url.hostname, path: '/' },
  ]);
}

test('signed out, the page says what it does and asks to sign in', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(PATH);
  await expect(page.getByRole('heading', { level: 1, name: 'File converter' })).toBeVisible();
  await expect(page.getByText('Sign in to convert files.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute('href', /next=%2Ftools%2Fconverters%2Ffiles%2F/);
  // What converts depends on the engines of the live workers, which /v1/convert/formats tells signed-in users.
  await expect(page.getByText('The formats this server converts right now are listed here once you are signed in.')).toBeVisible();
  await expect(page.getByRole('row', { name: /Word document/ })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('converts a DOCX to PDF and a PNG to WebP with progress, and offers them again in the recent list', async ({ page, baseURL }) => {
  const errors = watchErrors(page);
  await page.goto(baseURL!);
  await signIn(page);
  await page.goto(PATH);
  await expect(page.getByRole('heading', { name: 'Your recent conversions' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('No conversions yet.')).toBeVisible();
  const png = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#22aa88' } })
    .png()
    .toBuffer();
  await page.locator('input[type=file]').setInputFiles([
    {
      name: 'Minutes.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: docx('Converted on the page.'),
    },
    { name: 'banner.png', mimeType: 'image/png', buffer: png },
  ]);
  await expect(page.getByRole('combobox', { name: 'Convert Minutes.docx to' })).toHaveValue('pdf');
  await page.getByRole('combobox', { name: 'Convert banner.png to' }).selectOption('webp');
  await page.getByText('Options').click();
  await page.getByLabel('Image width (px)').fill('100');
  await page.getByRole('button', { name: 'Convert all' }).click();
  // Progress shows while it uploads and converts.
  await expect(page.getByRole('progressbar').first()).toBeVisible();
  await expect(page.getByText(/Converted: Minutes\.pdf/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/Converted: banner\.webp/)).toBeVisible({ timeout: 30_000 });
  const [first] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('li', { hasText: 'Minutes.docx' }).getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(first.suggestedFilename()).toBe('Minutes.pdf');
  expect(pdfText(Buffer.from(await readFile((await first.path())!)))).toContain('Converted on the page.');
  const [second] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('li', { hasText: 'banner.png' }).getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(second.suggestedFilename()).toBe('banner.webp');
  const webp = await sharp(await readFile((await second.path())!)).metadata();
  expect(webp).toMatchObject({ format: 'webp', width: 100, height: 50 });
  const recent = page.getByRole('table').filter({ hasText: 'Minutes.docx' });
  await expect(recent.getByRole('row', { name: /Minutes\.docx PDF completed/ })).toBeVisible();
  await recent
    .getByRole('row', { name: /banner\.png WEBP completed/ })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(recent.getByRole('row', { name: /banner\.png/ })).toHaveCount(0);
  expect(errors).toEqual([]);
});
