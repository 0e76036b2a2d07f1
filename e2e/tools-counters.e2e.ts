import { expect, test } from '@playwright/test';
import { clipboardText, downloaded, storedSettings, watchErrors } from './helpers.js';

// Tally counters through the real UI: create, count, step, keyboard shortcuts, reset and delete (both
// ask first), order, kept across a reload in IndexedDB, copy and CSV download, bad input explained.

test('Counters: several named counters, steps, keyboard, reset and delete asking first, kept across reloads', async ({ page, context }) => {
  const errors = watchErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tools/counters/new/');
  // A first counter is ready to use.
  await expect(page.getByLabel('Counter 1 count')).toHaveText('0');
  await page.getByRole('button', { name: 'Increase Counter 1' }).click();
  await page.getByRole('button', { name: 'Increase Counter 1' }).click();
  await expect(page.getByLabel('Counter 1 count')).toHaveText('2');

  await page.getByLabel('New counter').fill('People');
  await page.getByRole('button', { name: 'Add counter' }).click();
  await page.getByLabel('Step of People').fill('5');
  await page.getByRole('button', { name: 'Increase People' }).click();
  await page.getByRole('button', { name: 'Increase People' }).click();
  await page.getByRole('button', { name: 'Decrease People' }).click();
  await expect(page.getByLabel('People count')).toHaveText('5');

  // Keyboard: 1 selects the first counter, + and ↑ add, − takes away.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('1');
  await page.keyboard.press('+');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('-');
  await expect(page.getByLabel('Counter 1 count')).toHaveText('3');
  await page.keyboard.press('2');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByLabel('People count')).toHaveText('0');

  // Rename.
  await page.getByLabel('Name of Counter 1').fill('Laps');
  await page.getByLabel('Name of Counter 1').press('Enter');
  await expect(page.getByLabel('Laps count')).toHaveText('3');

  // Reset asks first; Cancel keeps the count.
  await page.keyboard.press('1');
  await page.keyboard.press('r');
  await page.getByRole('alertdialog', { name: 'Reset Laps' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByLabel('Laps count')).toHaveText('3');

  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect.poll(() => clipboardText(page)).toBe('Laps: 3\nPeople: 0\nTotal: 3');
  const csv = await downloaded(page, 'Download CSV');
  expect(csv.name).toBe('counters.csv');
  expect(csv.bytes.toString()).toBe('name,count,step\nLaps,3,1\nPeople,0,5\n');

  // Kept across a reload, order included.
  await page.reload();
  await expect(page.getByLabel('Laps count')).toHaveText('3');
  await expect(page.getByLabel('People count')).toHaveText('0');
  await page.getByRole('button', { name: 'Move People up' }).click();
  // The new order stored before the reload (a write in flight is aborted with the page).
  const storedOrder = async () =>
    (await storedSettings(page))
      .filter((r) => r.name.startsWith('counter:'))
      .map((r) => r.value as { label: string; order: number })
      .sort((a, b) => a.order - b.order)
      .map((c) => c.label);
  await expect.poll(storedOrder).toEqual(['People', 'Laps']);
  await page.reload();
  await expect(page.getByLabel('Output', { exact: true })).toHaveValue('People: 0\nLaps: 3\nTotal: 3');

  // Delete asks first.
  await page.getByRole('button', { name: 'Delete' }).first().click();
  await page.getByRole('alertdialog', { name: 'Delete People' }).getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page.getByLabel('People count')).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel('Laps count')).toHaveText('3');
  await expect(page.getByLabel('People count')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('Counters: bad names and steps are explained; names stay unique', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/counters/new/');
  await expect(page.getByLabel('Counter 1 count')).toHaveText('0');
  await page.getByLabel('Step of Counter 1').fill('0');
  await expect(page.getByRole('alert')).toHaveText('The step is a whole number from 1 to 1,000,000');
  await page.getByLabel('Step of Counter 1').fill('2');
  await expect(page.getByRole('alert')).toHaveCount(0);

  await page.getByLabel('Name of Counter 1').fill('   ');
  await page.getByLabel('Name of Counter 1').press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Give the counter a name');
  await expect(page.getByLabel('Counter 1 count')).toBeVisible();

  await page.getByLabel('New counter').fill('counter 1');
  await page.getByLabel('New counter').press('Enter');
  await expect(page.getByLabel('counter 1 (2) count')).toHaveText('0');
  expect(errors).toEqual([]);
});

test('Counters, keyboard only: after naming a new counter, Enter and Esc leave the name field and the keys count', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/counters/new/');
  await expect(page.getByRole('region', { name: 'Counter 1' })).toBeVisible();
  await page.locator('body').press('n');
  const newName = page.getByLabel('New counter');
  await expect(newName).toBeFocused();
  await page.keyboard.type('Laps');
  await page.keyboard.press('Enter');
  const laps = page.getByRole('region', { name: 'Laps' });
  await expect(laps).toBeFocused();
  await page.keyboard.press('+');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('+');
  await expect(page.getByLabel('Laps count')).toHaveText('3');
  await expect(newName).toHaveValue('');
  await page.keyboard.press('1');
  await page.keyboard.press('+');
  await expect(page.getByLabel('Counter 1 count')).toHaveText('1');

  // Esc in the name field: the half-typed name is dropped and the keys count the selected counter again.
  await page.keyboard.press('n');
  await expect(newName).toBeFocused();
  await page.keyboard.type('oops');
  await page.keyboard.press('Escape');
  await expect(newName).toHaveValue('');
  await expect(newName).not.toBeFocused();
  await page.keyboard.press('+');
  await expect(page.getByLabel('Counter 1 count')).toHaveText('2');
  expect(errors).toEqual([]);
});
