import { expect, type Page } from '@playwright/test';
import { test } from './helpers.js';

// Social sign-in end to end: Chromium clicks "Continue with Google", the real loopback OpenID Connect
// provider (oidc-provider, started by the Playwright config) shows its login form, and the browser
// comes back to /login/oauth/google, where the web app exchanges the code through the gateway.

const IN_USE_GOOGLE =
  'The selected email address is already in use: did you log in with a different authentication provider? Maybe Github or Facebook? or maybe you used a password?';

let counter = 0;
const newEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${process.pid}-${++counter}@example.com`;

/** At the provider's login page: who signs in. */
async function signInAtProvider(page: Page, email: string, name: string, verified = true): Promise<void> {
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\//);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email verified').setChecked(verified);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test.describe('sign-in with Google (OpenID Connect on loopback)', () => {
  test('creates the account, signs in, and the same Google account signs in again to the same profile', async ({ page, newContext }) => {
    const email = newEmail('google');
    await page.goto('/login#!/login');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await signInAtProvider(page, email, 'Grace Hopper');
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('button', { name: email })).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveValue('Grace Hopper');
    await expect(page.getByText('Verified', { exact: true })).toBeVisible();

    const again = await newContext();
    const second = await again.newPage();
    await second.goto('/login#!/register');
    await second.getByRole('button', { name: 'Continue with Google' }).click();
    await signInAtProvider(second, email.toUpperCase(), 'Grace Hopper');
    await expect(second).toHaveURL(/\/account$/);
    await expect(second.getByRole('button', { name: email })).toBeVisible();
    await again.close();
  });

  test('returns to the page that asked for sign-in', async ({ page }) => {
    await page.goto('/billing');
    await expect(page).toHaveURL(/next=%2Fbilling/);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await signInAtProvider(page, newEmail('return'), 'Ada');
    await expect(page).toHaveURL(/\/billing$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Billing');
  });

  test('an email that belongs to a password account shows the Google email-in-use text', async ({ page, request }) => {
    const email = newEmail('inuse');
    const created = await request.post('/v1/users', { data: { email, password: 'correct horse battery staple' } });
    expect(created.status()).toBe(201);
    await page.goto('/login#!/login');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await signInAtProvider(page, email, 'Somebody');
    await expect(page).toHaveURL(/\/login\/oauth\/google\?/);
    await expect(page.getByRole('alert')).toHaveText(IN_USE_GOOGLE);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
  });

  test('a callback without a valid state is refused with a clear message', async ({ page }) => {
    await page.goto('/login/oauth/google?code=forged&state=forged');
    await expect(page.getByRole('alert')).toContainText('VALIDATION_FAILED - ');
    await page.goto('/login/oauth/google?error=access_denied&error_description=The+user+said+no');
    await expect(page.getByRole('alert')).toHaveText('Sign-in was cancelled or refused: The user said no.');
  });
});
