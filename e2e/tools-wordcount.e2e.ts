import { expect, test } from '@playwright/test';
import { clipboardText, downloaded, watchErrors } from './helpers.js';

// Word count through the real UI: live counts, languages without spaces, most frequent words, the
// report copied and downloaded, a binary file refused, a large file counted in the worker.

function figure(page: import('@playwright/test').Page, name: string) {
  return page.getByRole('definition').filter({ has: page.locator('xpath=preceding-sibling::dt[1]', { hasText: new RegExp(`^${name}$`) }) });
}

test('Word count: live counts, top words, language, copy and download', async ({ page, context }) => {
  const errors = watchErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tools/wordcount/');
  const input = page.getByLabel('Input', { exact: true });
  const output = page.getByLabel('Output', { exact: true });

  await input.fill('The cat and the dog. The Dog barked; the cat ran!\n\nA second paragraph 👋🏽.');
  await expect(figure(page, 'Words')).toHaveText('14');
  await expect(figure(page, 'Sentences')).toHaveText('3');
  await expect(figure(page, 'Paragraphs')).toHaveText('2');
  await expect(figure(page, 'Lines')).toHaveText('3');
  await expect(figure(page, 'Reading time')).toHaveText('< 1 min');
  const top = page.getByRole('table', { name: 'Most frequent words' });
  await expect(top.getByRole('row').nth(1)).toHaveText('cat2');
  await page.getByLabel('Leave common English words out of the top list').uncheck();
  await expect(top.getByRole('row').nth(1)).toHaveText('the4');
  await expect(page).toHaveURL(/common=0/);

  await expect(output).toHaveValue(/^Words: 14\nCharacters: \d+\n/);
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect.poll(() => clipboardText(page)).toBe(await output.inputValue());
  const file = await downloaded(page, 'Download');
  expect(file.name).toBe('word-count.txt');

  await page.getByLabel('Language').selectOption('zh');
  await input.fill('我喜欢学习中文');
  await expect(figure(page, 'Characters')).toHaveText('7');
  expect(Number(await figure(page, 'Words').textContent())).toBeGreaterThanOrEqual(3);
  expect(errors).toEqual([]);
});

test('Word count: a binary file is refused; a large file is counted in the background', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/wordcount/');
  await page
    .getByLabel('Choose file')
    .setInputFiles({ name: 'image.png', mimeType: 'image/png', buffer: Buffer.from('89504e470d0a1a0a0000', 'hex') });
  await expect(page.getByRole('alert')).toHaveText('image.png is not a text file (it holds binary data).');

  const big = 'Lorem ipsum dolor sit amet. '.repeat(40_000);
  await page.getByLabel('Choose file').setInputFiles({ name: 'lorem.txt', mimeType: 'text/plain', buffer: Buffer.from(big) });
  await expect(page.getByText('lorem.txt')).toBeVisible();
  await expect(figure(page, 'Words')).toHaveText('200,000', { timeout: 20_000 });
  await expect(figure(page, 'Sentences')).toHaveText('40,000');
  await expect(figure(page, 'Reading time')).toHaveText('14 h');
  expect(errors).toEqual([]);
});
