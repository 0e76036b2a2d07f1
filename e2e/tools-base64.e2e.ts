import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { clipboardText, downloaded, watchErrors } from './helpers.js';

// Base64 encode and decode through the real UI: text (UTF-8 exact), settings in the URL, files through
// the worker with progress, precise errors, binary results with a detected type, copy and download.

test('Base64 encode: UTF-8 text live, alphabet, padding and line breaks kept in the URL, copy and download', async ({ page, context }) => {
  const errors = watchErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tools/converters/base64/encode/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Base64 encode');
  const input = page.getByLabel('Input', { exact: true });
  const output = page.getByLabel('Output', { exact: true });

  const text = 'Grüße 👋🏽 𝄞 ?>?';
  await input.fill(text);
  await expect(output).toHaveValue(Buffer.from(text).toString('base64'));
  await expect(page.getByText(`36 characters from ${Buffer.byteLength(text)} bytes`)).toBeVisible();

  await page.getByLabel('Alphabet').selectOption('url');
  await page.getByLabel('Padding (=)').uncheck();
  await expect(output).toHaveValue(Buffer.from(text).toString('base64url'));
  await expect(page).toHaveURL(/alphabet=url/);
  await expect(page).toHaveURL(/padding=0/);
  await page.reload();
  await expect(page.getByLabel('Alphabet')).toHaveValue('url');
  await expect(page.getByLabel('Padding (=)')).not.toBeChecked();
  await expect(input).toHaveValue(''); // settings, never content, are in the URL

  await page.getByLabel('Alphabet').selectOption('standard');
  await page.getByLabel('Padding (=)').check();
  await page.getByLabel('Line breaks').selectOption('76');
  const long = 'x'.repeat(100);
  await input.fill(long);
  const wrapped = Buffer.from(long)
    .toString('base64')
    .match(/.{1,76}/g)!
    .join('\n');
  await expect(output).toHaveValue(wrapped);

  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  await expect.poll(() => clipboardText(page)).toBe(wrapped);
  const file = await downloaded(page, 'Download');
  expect(file.name).toBe('base64.txt');
  expect(file.bytes.toString()).toBe(wrapped);

  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(output).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Copy' })).toBeDisabled();
  expect(errors).toEqual([]);
});

test('Base64 encode: a 12 MB file goes through the worker and downloads whole', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/converters/base64/encode/');
  const bytes = randomBytes(12 * 1024 * 1024 + 1);
  await page.getByLabel('Choose file').setInputFiles({ name: 'random.bin', mimeType: 'application/octet-stream', buffer: bytes });
  await expect(page.getByText('random.bin')).toBeVisible();
  await expect(page.getByLabel('Input', { exact: true })).toHaveCount(0);
  const expected = bytes.toString('base64');
  await expect(page.getByText(/characters from 12\.6 MB — showing the first 100,000; copy or download for all of it/)).toBeVisible({
    timeout: 20_000,
  });
  expect(await page.getByLabel('Output', { exact: true }).inputValue()).toBe(expected.slice(0, 100_000));
  const file = await downloaded(page, 'Download');
  expect(file.name).toBe('random.bin.base64.txt');
  expect(file.bytes.toString()).toBe(expected);
  await page.getByRole('button', { name: 'Remove file' }).click();
  await expect(page.getByLabel('Input', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Output', { exact: true })).toHaveValue('');
  expect(errors).toEqual([]);
});

test('Base64 decode: text, whitespace and missing padding, precise errors, wrong alphabet', async ({ page, context }) => {
  const errors = watchErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tools/converters/base64/decode/');
  const input = page.getByLabel('Input', { exact: true });
  const output = page.getByLabel('Output', { exact: true });

  await input.fill('8J+Ri/Cf\n j70g8J2Eng');
  await expect(output).toHaveValue('👋🏽 𝄞');
  await expect(page.getByText('Text (UTF-8) · 13 bytes')).toBeVisible();
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect.poll(() => clipboardText(page)).toBe('👋🏽 𝄞');

  await input.fill('SGVsbG8s\nIFdv!cmxk');
  await expect(page.getByRole('alert')).toContainText("Invalid character '!' at position 14 (line 2, column 5).");
  await expect(output).toHaveValue('');
  await expect(page.getByRole('button', { name: /^Download/ })).toBeDisabled();
  await page.getByRole('button', { name: 'Show it in the input' }).click();
  await expect(input).toBeFocused();
  expect(await input.evaluate((el: HTMLTextAreaElement) => [el.selectionStart, el.selectionEnd])).toEqual([13, 14]);

  await input.fill('Zm9vY');
  await expect(page.getByRole('alert')).toContainText('single leftover character');

  await page.getByLabel('Alphabet').selectOption('standard');
  await expect(page).toHaveURL(/alphabet=standard/);
  await input.fill('eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkrDtnJnIn0');
  await expect(output).toHaveValue('{"sub":"1234567890","name":"Jörg"}');
  await input.fill('a-b_');
  await expect(page.getByRole('alert')).toContainText(
    "Character '-' is from the URL-safe (-_) alphabet, but the input uses the standard (+/) one",
  );
  expect(errors).toEqual([]);
});

test('Base64 decode: binary data gets a hex view, an image preview and a download with the detected type', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/converters/base64/decode/');
  await page.getByRole('button', { name: 'A tiny PNG image' }).click();
  await expect(page.getByText(/^PNG file \(image\/png\) · 187 bytes$/)).toBeVisible();
  await expect(page.getByLabel('Output', { exact: true })).toHaveValue(
    /^00000000 {2}89 50 4e 47 0d 0a 1a 0a {2}00 00 00 0d 49 48 44 52 {2}\|\.PNG\.\.\.\.\.\.\.\.IHDR\|/,
  );
  const preview = page.getByRole('img', { name: 'Preview of the decoded PNG file' });
  await expect(preview).toBeVisible();
  expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
  const file = await downloaded(page, 'Download decoded.png');
  expect(file.name).toBe('decoded.png');
  expect(file.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(file.bytes.length).toBe(187);
  expect(errors).toEqual([]);
});

test('Base64 decode: a large Base64 file decodes in the worker, and an invalid one reports the position', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/converters/base64/decode/');
  const bytes = randomBytes(3 * 1024 * 1024);
  const encoded = bytes.toString('base64').replace(/.{76}/g, '$&\r\n');
  await page.getByLabel('Choose file').setInputFiles({ name: 'data.b64', mimeType: 'text/plain', buffer: Buffer.from(encoded) });
  await expect(page.getByText(/^Binary data \(type not recognised\) · 3\.1 MB/)).toBeVisible({ timeout: 20_000 });
  const file = await downloaded(page, 'Download decoded.bin');
  expect(file.bytes.equals(bytes)).toBe(true);

  const broken = `${encoded.slice(0, 1000)}#${encoded.slice(1000)}`;
  await page.getByLabel('Choose file').setInputFiles({ name: 'broken.b64', mimeType: 'text/plain', buffer: Buffer.from(broken) });
  const line = Math.floor(1000 / 78) + 1;
  const column = 1000 - (line - 1) * 78 + 1;
  await expect(page.getByRole('alert')).toContainText(`Invalid character '#' at position 1001 (line ${line}, column ${column}).`);
  expect(errors).toEqual([]);
});
