import { expect, test } from '@playwright/test';
import { clipboardText, downloaded, watchErrors } from './helpers.js';

// The size, password and UUID tools through the real UI: main flow, settings in the URL, a bad input
// and its message, copy and download.

test('Size in bytes: bytes to text and text to bytes, both unit systems, exact beyond 2^53', async ({ page, context }) => {
  const errors = watchErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tools/converters/size-in-bytes-as-human-readable-text/');
  const input = page.getByLabel('Input', { exact: true });
  const output = page.getByLabel('Output', { exact: true });

  await input.fill('1500000000');
  await expect(output).toHaveValue('1.5 GB\n1.4 GiB');
  await expect(page.getByRole('table', { name: 'Decimal units (SI): 1 kB = 1000 bytes' }).getByRole('row', { name: /^GB/ })).toContainText(
    '1.5',
  );
  await expect(
    page.getByRole('table', { name: 'Binary units (IEC): 1 KiB = 1024 bytes' }).getByRole('row', { name: /^MiB/ }),
  ).toContainText('1430.51');
  await input.fill('2 MiB');
  await expect(output).toHaveValue('2097152 bytes');
  await input.fill('18446744073709551615');
  await page.getByLabel('Decimals').fill('6');
  await expect(output).toHaveValue('18.446744 EB\n16 EiB');
  await expect(page).toHaveURL(/decimals=6/);
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect.poll(() => clipboardText(page)).toBe('18.446744 EB\n16 EiB');

  await input.fill('12 parsecs');
  await expect(page.getByRole('alert')).toHaveText(/Unknown unit "parsecs"/);
  await expect(output).toHaveValue('');
  expect(errors).toEqual([]);
});

test('Password generator: length and sets in the URL, look-alikes excluded, many at once, entropy, copy and download', async ({
  page,
  context,
}) => {
  const errors = watchErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tools/passwordgenerator/');
  const output = page.getByLabel('Output', { exact: true });
  await expect(output).toHaveValue(/^.{20}$/);
  const first = await output.inputValue();
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(output).not.toHaveValue(first);

  await page.getByLabel('Length').fill('32');
  await page.getByLabel('How many').fill('10');
  await page.getByLabel('Symbols (!#$%…)').uncheck();
  await page.getByLabel(/Exclude look-alikes/).check();
  await expect(page).toHaveURL(/length=32/);
  await expect(page).toHaveURL(/symbols=0/);
  const lines = (await output.inputValue()).split('\n');
  expect(lines).toHaveLength(10);
  for (const line of lines) {
    expect(line).toMatch(/^[a-zA-Z0-9]{32}$/);
    expect(line).not.toMatch(/[Il1O0o|]/);
    expect(line).toMatch(/[a-z]/);
    expect(line).toMatch(/[A-Z]/);
    expect(line).toMatch(/[0-9]/);
  }
  // 56 characters (62 minus I l 1 O 0 o): 32 × log2(56) ≈ 185.8 bits, a little less with one of each set.
  await expect(page.getByText(/Entropy: 185 bits per password \(very strong\)/)).toBeVisible();
  await page.getByRole('button', { name: 'Copy all' }).click();
  await expect.poll(() => clipboardText(page)).toBe(lines.join('\n'));
  const file = await downloaded(page, 'Download');
  expect(file.bytes.toString()).toBe(`${lines.join('\n')}\n`);

  // A bad number is said next to its field and takes the passwords away (none made for other settings stays copyable).
  await page.getByLabel('How many').fill('1000');
  await expect(page.getByRole('alert')).toHaveText('The number of passwords can be at most 500');
  await expect(page.getByLabel('How many')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('How many')).toHaveAccessibleDescription('The number of passwords can be at most 500');
  await expect(page.getByLabel('How many')).toHaveValue('1000');
  await expect(output).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Copy all' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Generate' })).toBeDisabled();
  await expect(page).toHaveURL(/count=10(?!\d)/);
  await page.getByLabel('How many').fill('500');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect.poll(async () => (await output.inputValue()).split('\n').length).toBe(500);
  await expect(page).toHaveURL(/count=500/);
  await page.getByLabel('How many').fill('3');

  await page.getByLabel('Length').fill('2');
  await expect(page.getByRole('alert')).toHaveText('The length must be at least 4');
  await expect(output).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Copy all' })).toBeDisabled();
  await page.getByLabel('Length').fill('5000');
  await expect(page.getByRole('alert')).toHaveText('The length can be at most 1024');
  await page.getByLabel('Length').fill('12');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(output).toHaveValue(/^[a-zA-Z0-9]{12}\n[a-zA-Z0-9]{12}\n[a-zA-Z0-9]{12}$/);
  await page.getByLabel('Length').fill('2');
  for (const set of ['Lowercase (a–z)', 'Uppercase (A–Z)', 'Digits (0–9)']) await page.getByLabel(set).uncheck();
  await expect(page.getByText('Choose at least one character set')).toBeVisible();
  expect(errors).toEqual([]);
});

test('GUID generator: v4 and v7, many, formats in the URL, copy all, validation of a pasted UUID', async ({ page, context }) => {
  const errors = watchErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tools/guidgenerator/');
  const output = page.getByLabel('Output', { exact: true });
  await expect(output).toHaveValue(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

  await page.getByLabel('Version').selectOption('v7');
  await page.getByLabel('How many').fill('50');
  await page.getByLabel('Uppercase').check();
  await page.getByLabel('Braces { }').check();
  await expect(page).toHaveURL(/version=v7/);
  const ids = (await output.inputValue()).split('\n');
  expect(ids).toHaveLength(50);
  for (const id of ids) expect(id).toMatch(/^\{[0-9A-F]{8}-[0-9A-F]{4}-7[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}\}$/);
  expect([...ids].sort()).toEqual(ids);
  await page.getByRole('button', { name: 'Copy all' }).click();
  await expect.poll(() => clipboardText(page)).toBe(ids.join('\n'));
  const file = await downloaded(page, 'Download');
  expect(file.name).toBe('uuids-v7.txt');

  await page.reload();
  await expect(page.getByLabel('Version')).toHaveValue('v7');
  const input = page.getByLabel('Input', { exact: true });
  await input.fill('017F22E2-79B0-7CC3-98C4-DC0C0C07398F');
  await expect(
    page.getByText('Valid UUID: version 7 (Unix-time-ordered), variant RFC 9562, created 2022-02-22 19:22:22 UTC'),
  ).toBeVisible();
  await input.fill('not-a-uuid');
  await expect(page.getByRole('alert')).toHaveText('A UUID has 32 hexadecimal digits; this has 2');
  expect(errors).toEqual([]);
});
