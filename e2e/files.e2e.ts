import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { signInContext, watchErrors } from './helpers.js';

/**
 * Saved files ("cloud saves") in the browser against the real platform: a conversion result and a
 * tool's output are saved to my files through the signed upload URL, /account lists them, one
 * downloads back byte for byte, and deleting asks first. Signed out, nothing offers to save.
 */
async function signIn(page: Page, baseURL: string): Promise<void> {
  await page.goto(baseURL);
  const email = `files-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await page.request.post('/v1/users', { data: { email, password: 'saving my files' } });
  const { token } = (await res.json()) as { token: string };
  await signInContext(page.context(), baseURL, token);
}

test('signed out, a tool offers Download but not Save to my files', async ({ page }) => {
  await page.goto('/tools/converters/base64/encode/');
  await page.getByRole('textbox', { name: 'Input' }).fill('hello');
  await expect(page.getByRole('button', { name: 'Download', exact: true })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Save to my files' })).toHaveCount(0);
});

test('a conversion result and a tool output are saved to my files, listed on /account, downloaded back and deleted', async ({
  page,
  baseURL,
}) => {
  const errors = watchErrors(page);
  await signIn(page, baseURL!);

  // A conversion result.
  await page.goto('/tools/converters/files/');
  await expect(page.getByRole('heading', { name: 'Your recent conversions' })).toBeVisible({ timeout: 15_000 });
  const png = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  await page.locator('input[type=file]').setInputFiles([{ name: 'Logo Entwurf.png', mimeType: 'image/png', buffer: png }]);
  await page.getByRole('combobox', { name: 'Convert Logo Entwurf.png to' }).selectOption('webp');
  await page.getByRole('button', { name: 'Convert all' }).click();
  const item = page.locator('li', { hasText: 'Converted: Logo Entwurf.webp' });
  await expect(item).toBeVisible({ timeout: 30_000 });
  await item.getByRole('button', { name: 'Save to my files' }).click();
  await expect(item.getByText('Saved.')).toBeVisible({ timeout: 15_000 });

  // A tool's output.
  await page.goto('/tools/converters/base64/encode/');
  await page.getByRole('textbox', { name: 'Input' }).fill('Tinkerdesk keeps this for me.');
  await page.getByRole('button', { name: 'Save to my files' }).click();
  await expect(page.getByText('Saved.')).toBeVisible({ timeout: 15_000 });
  await page.getByRole('link', { name: 'My files' }).click();

  // Both are listed on /account/files, newest first, with the quota in use.
  await expect(page).toHaveURL(/\/account\/files$/);
  const files = page.getByRole('region', { name: 'My files' });
  await expect(files.getByRole('listitem')).toHaveCount(2, { timeout: 15_000 });
  await expect(files.getByRole('listitem').nth(1)).toContainText('Logo Entwurf.webp');
  await expect(files.getByRole('progressbar')).toHaveAccessibleName(/used$/);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    files.getByRole('button', { name: 'Download Logo Entwurf.webp' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('Logo Entwurf.webp');
  expect(await sharp(await readFile((await download.path())!)).metadata()).toMatchObject({ format: 'webp', width: 120, height: 80 });

  // Deleting asks first; keeping keeps it.
  await files.getByRole('button', { name: 'Delete Logo Entwurf.webp' }).click();
  await files.getByRole('button', { name: 'Keep' }).click();
  await expect(files.getByRole('listitem')).toHaveCount(2);
  await files.getByRole('button', { name: 'Delete Logo Entwurf.webp' }).click();
  await files.getByRole('group', { name: 'Delete Logo Entwurf.webp?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(files.getByRole('listitem')).toHaveCount(1);
  await expect(files).not.toContainText('Logo Entwurf.webp');
  expect(errors).toEqual([]);
});
