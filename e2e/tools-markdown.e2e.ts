import { expect, test } from '@playwright/test';
import { clipboardText, downloaded, watchErrors } from './helpers.js';

// Markdown to HTML through the real UI: CommonMark and GFM output, the sanitized live preview (nothing
// from the input can run), settings in the URL, copy, download, .md files, binary files refused, and
// a 1 MB document converted in the worker.

const PAGE = '/tools/converters/markdown/html/';

test('Markdown: GFM output and live preview, settings kept in the URL, copy and download', async ({ page, context }) => {
  const errors = watchErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(PAGE);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Markdown to HTML');
  const input = page.getByLabel('Input', { exact: true });
  const output = page.getByLabel('Output', { exact: true });
  const preview = page.getByRole('document', { name: 'Preview' });

  await input.fill('# Release notes\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n\n~~old~~ see www.example.com\n');
  await expect(output).toHaveValue(/^<h1>Release notes<\/h1>\n<table>/);
  await expect(output).toHaveValue(/<td style="text-align:right">2<\/td>/);
  await expect(output).toHaveValue(/<p><s>old<\/s> see <a href="http:\/\/www.example.com">www.example.com<\/a><\/p>/);
  await expect(preview.getByRole('heading', { level: 1, name: 'Release notes' })).toBeVisible();
  await expect(preview.getByRole('table')).toBeVisible();
  await expect(preview.getByRole('checkbox')).toHaveCount(2);
  await expect(preview.getByRole('checkbox').first()).toBeChecked();
  await expect(preview.getByRole('checkbox').first()).toBeDisabled();
  const link = preview.getByRole('link', { name: 'www.example.com' });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);

  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect.poll(() => clipboardText(page)).toBe(await output.inputValue());
  await page.getByRole('button', { name: 'Copy formatted' }).click();
  await expect.poll(() => clipboardText(page)).toContain('Release notes');
  const file = await downloaded(page, 'Download');
  expect(file.name).toBe('release-notes.html');
  const doc = file.bytes.toString();
  expect(doc).toMatch(/^<!doctype html>/);
  expect(doc).toContain('<title>Release notes</title>');
  expect(doc).toContain('<h1>Release notes</h1>');

  await page.getByLabel('GitHub Flavored Markdown').uncheck();
  await expect(page).toHaveURL(/gfm=0/);
  await expect(output).toHaveValue(/<p>~~old~~ see www.example.com<\/p>/);
  await page.getByLabel('Line breaks as <br>').check();
  await page.reload();
  await expect(page.getByLabel('GitHub Flavored Markdown')).not.toBeChecked();
  await expect(page.getByLabel('Line breaks as <br>')).toBeChecked();
  await input.fill('a\nb');
  await expect(output).toHaveValue('<p>a<br />\nb</p>\n');
  expect(errors).toEqual([]);
});

test('Markdown: nothing in the input can run script in the preview; external images are not fetched', async ({ page }) => {
  const errors = watchErrors(page);
  const outside: string[] = [];
  page.on('request', (r) => !r.url().startsWith('http://localhost') && !r.url().startsWith('data:') && outside.push(r.url()));
  await page.goto(PAGE);
  const attack = [
    '<img src=x onerror="window.__xss=1">',
    '<script>window.__xss=2</script>',
    '[click](javascript:window.__xss=3)',
    '<a href="javascript:window.__xss=4" id="evil">evil</a>',
    '<svg><animate onbegin="window.__xss=5" attributeName="x" dur="1s"/></svg>',
    '<iframe srcdoc="<script>parent.__xss=6</script>"></iframe>',
    '<details open ontoggle="window.__xss=7"><summary>s</summary></details>',
    '![logo](https://images.example.com/logo.png)',
  ].join('\n\n');
  await page.getByLabel('Input', { exact: true }).fill(attack);
  const output = page.getByLabel('Output', { exact: true });
  // Raw HTML stays in the source (CommonMark keeps it) ...
  await expect(output).toHaveValue(/<script>window.__xss=2<\/script>/);
  // ... but the preview holds none of it.
  const preview = page.getByRole('document', { name: 'Preview' });
  await expect(preview.locator('img[data-blocked-src="https://images.example.com/logo.png"]')).toHaveAttribute('alt', 'logo');
  await expect(preview.locator('script, iframe, [onerror], [onbegin], [ontoggle]')).toHaveCount(0);
  await preview.getByText('evil').click();
  await preview.getByText('click').click();
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await preview.locator('a[href^="javascript"]').count()).toBe(0);
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
});

test('Markdown: .md files open, binary files are refused with a message, 1 MB converts in the background', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(PAGE);
  const output = page.getByLabel('Output', { exact: true });

  await page
    .getByLabel('Choose file')
    .setInputFiles({ name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('\uFEFF## Notes\n\n*ok*\n') });
  await expect(page.getByLabel('Input', { exact: true })).toHaveValue('## Notes\n\n*ok*\n');
  await expect(output).toHaveValue('<h2>Notes</h2>\n<p><em>ok</em></p>\n');

  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  await page.getByLabel('Choose file').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByRole('alert')).toHaveText('photo.png is not a text file (it holds binary data).');
  await expect(page.getByLabel('Input', { exact: true })).toHaveValue('## Notes\n\n*ok*\n');

  const section =
    '## Section\n\nSome *emphasis*, `code` and a [link](https://example.com).\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n';
  const sections = Math.ceil(1_000_000 / section.length);
  await page
    .getByLabel('Choose file')
    .setInputFiles({ name: 'big.md', mimeType: 'text/markdown', buffer: Buffer.from(section.repeat(sections)) });
  // A large file stays a file (read and converted in the worker); the field shows the start of the HTML.
  await expect(page.getByText('big.md')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByText(/characters of HTML · converted in \d+.* showing the first/)).toBeVisible({ timeout: 15_000 });
  expect((await output.inputValue()).startsWith('<h2>Section</h2>\n<p>Some <em>emphasis</em>')).toBe(true);
  await expect(page.getByRole('status').filter({ hasText: 'The preview shows the first' })).toBeVisible();
  const file = await downloaded(page, 'Download');
  expect(file.name).toBe('big.html');
  expect(file.bytes.toString().match(/<h2>Section<\/h2>/g)).toHaveLength(sections);

  // A large binary file is refused by the worker, with the same message.
  await page.getByRole('button', { name: 'Remove file' }).click();
  await page
    .getByLabel('Choose file')
    .setInputFiles({ name: 'data.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(300_000, 0) });
  await expect(page.getByRole('alert')).toHaveText('data.bin is not a text file (it holds binary data).');
  expect(errors).toEqual([]);
});
