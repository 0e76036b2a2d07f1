import { expect, test } from '@playwright/test';
import { clipboardText } from './helpers.js';
import { readFile } from 'node:fs/promises';

// ROT13 encode and decode through the real UI: live output, copy, download, examples, swap.
// (ROT13 has no invalid input: every character is either rotated or kept, which the test shows.)

for (const [path, heading] of [
  ['/tools/converters/rot13/encode/', 'ROT13 encode'],
  ['/tools/converters/rot13/decode/', 'ROT13 decode'],
] as const) {
  test(`${heading}: live output, copy, download, swap, examples, no console errors`, async ({ page, context }) => {
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    const input = page.getByLabel('Input', { exact: true });
    const output = page.getByLabel('Output', { exact: true });

    await input.fill('Hello, World! Zürich 2024 – Привет 👋');
    await expect(output).toHaveValue('Uryyb, Jbeyq! Müevpu 2024 – Привет 👋');

    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
    await expect.poll(() => clipboardText(page)).toBe('Uryyb, Jbeyq! Müevpu 2024 – Привет 👋');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^rot13-(en|de)coded\.txt$/);
    expect(await readFile((await download.path())!, 'utf8')).toBe('Uryyb, Jbeyq! Müevpu 2024 – Привет 👋');

    await page.getByRole('button', { name: 'Swap' }).click();
    await expect(input).toHaveValue('Uryyb, Jbeyq! Müevpu 2024 – Привет 👋');
    await expect(output).toHaveValue('Hello, World! Zürich 2024 – Привет 👋');

    await page.getByRole('button', { name: 'A spoiler' }).click();
    await expect(output).toHaveValue('The butler did it.');
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(input).toHaveValue('');
    await expect(output).toHaveValue('');
    await expect(page.getByRole('button', { name: 'Copy' })).toBeDisabled();
    expect(errors).toEqual([]);
  });
}
