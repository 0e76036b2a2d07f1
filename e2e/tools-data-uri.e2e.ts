import { expect, test } from '@playwright/test';
import { clipboardText, downloaded, watchErrors } from './helpers.js';

// Data URIs through the real UI: a file to a data URI (media type, wrappers, settings in the URL,
// copy, download) and a data URI back to a preview and a file with a sensible name; bad URIs explained.

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAbUlEQVQI1xXOUREAUQhCUaMYhShEMcqNQhSi7Fs/OQzjzLCDBg83MGToMLPsosXLLSxZug/ECgmLE4iI6oFZI2NzBhNTPzj20OHjDo4cvQf/7Bt41Rf+F+h7YsIGBYfLHyc0D8oWFZfrX05p+QDeqGABkXynIAAAAABJRU5ErkJggg==',
  'base64',
);

test('Data URI from a file: media type, preview, CSS wrapper kept in the URL, copy and download', async ({ page, context }) => {
  const errors = watchErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tools/converters/data-uri-url/from-image-or-file/');
  const output = page.getByLabel('Output', { exact: true });

  await page.getByLabel('Choose file').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
  const uri = `data:image/png;base64,${PNG.toString('base64')}`;
  await expect(output).toHaveValue(uri);
  await expect(page.getByRole('img', { name: 'Preview of dot.png' })).toBeVisible();
  await expect(page.getByText(`${uri.length} characters · image/png`)).toBeVisible();

  await page.getByLabel('Output as').selectOption('css');
  await expect(output).toHaveValue(`url("${uri}")`);
  await expect(page).toHaveURL(/wrapper=css/);
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect.poll(() => clipboardText(page)).toBe(`url("${uri}")`);
  const file = await downloaded(page, 'Download');
  expect(file.name).toBe('dot.png.data-uri.txt');
  expect(file.bytes.toString()).toBe(`url("${uri}")`);

  await page.reload();
  await expect(page.getByLabel('Output as')).toHaveValue('css');
  expect(errors).toEqual([]);
});

test('Data URI from text: percent-encoding keeps it readable; a file without a type is recognised by its content', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/converters/data-uri-url/from-image-or-file/?encoding=percent');
  const output = page.getByLabel('Output', { exact: true });
  await page.getByLabel('Input', { exact: true }).fill('Hello, Wörld #1');
  await expect(output).toHaveValue('data:text/plain;charset=utf-8,Hello,%20W%C3%B6rld%20%231');
  await page.getByLabel('Encoding').selectOption('base64');
  await expect(output).toHaveValue(`data:text/plain;charset=utf-8;base64,${Buffer.from('Hello, Wörld #1').toString('base64')}`);

  await page.getByLabel('Choose file').setInputFiles({ name: 'no-extension', mimeType: '', buffer: PNG });
  await expect(output).toHaveValue(`data:image/png;base64,${PNG.toString('base64')}`);
  await expect(page.getByText('read as image/png')).toBeVisible();
  expect(errors).toEqual([]);
});

test('Data URI to a file: preview, file name from the media type or the name parameter, download', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/converters/data-uri-url/to-image-or-file/');
  const input = page.getByLabel('Input', { exact: true });
  const output = page.getByLabel('Output', { exact: true });

  await input.fill(`data:image/png;base64,${PNG.toString('base64')}`);
  await expect(page.getByText('image/png · Base64 · 187 bytes')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Preview of image.png' })).toBeVisible();
  await expect(output).toHaveValue(/^00000000 {2}89 50 4e 47/);
  let file = await downloaded(page, 'Download');
  expect(file.name).toBe('image.png');
  expect(file.bytes.equals(PNG)).toBe(true);

  await page.getByLabel('File name').fill('my dot.png');
  file = await downloaded(page, 'Download');
  expect(file.name).toBe('my dot.png');

  await page.getByRole('button', { name: 'Named PDF' }).click();
  await expect(page.getByLabel('File name')).toHaveValue('hello.pdf');
  file = await downloaded(page, 'Download');
  expect(file.name).toBe('hello.pdf');
  expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-');

  await input.fill('data:text/plain;charset=utf-8,Hello%2C%20W%C3%B6rld%21');
  await expect(output).toHaveValue('Hello, Wörld!');
  await expect(page.getByLabel('File name')).toHaveValue('text.txt');
  expect(errors).toEqual([]);
});

test('Data URI to a file: bad input gets a clear message and nothing to download', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/converters/data-uri-url/to-image-or-file/');
  const input = page.getByLabel('Input', { exact: true });
  await input.fill('https://example.com/logo.png');
  await expect(page.getByRole('alert')).toHaveText('A data URI starts with “data:”; this one starts with “https://exam…”.');
  await expect(page.getByRole('button', { name: 'Download' })).toHaveCount(0);
  await input.fill('data:image/png;base64');
  await expect(page.getByRole('alert')).toHaveText(
    'The data URI has no comma: “data:[media type][;base64],data” needs one before the data.',
  );
  await input.fill('data:image/png;base64,iVBO!w0K');
  await expect(page.getByRole('alert')).toHaveText("The Base64 data is not valid: Invalid character '!' at position 27 of the URI.");
  expect(errors).toEqual([]);
});
