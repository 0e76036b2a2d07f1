import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { mailTo, test } from './helpers.js';

// Accounts end to end in Chromium against the real platform: the forms, the session state machine
// of docs/web-app.md#session-and-local-database, the drop-down, and the emails (written as .eml files under DATA_DIR/mail)
// followed like a person would.

const PASSWORD = 'correct horse battery staple';
let counter = 0;
const newEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${process.pid}-${++counter}@example.com`;

/** Console errors other than the browser's own note about an HTTP error status the test provoked on purpose. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of (401|409|429|503)/.test(m.text())) {
      errors.push(m.text());
    }
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

async function signUp(page: Page, email: string, password = PASSWORD, menu = true): Promise<void> {
  await page.goto('/login#!/register');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account');
  // The top bar's drop-down is hidden on phones (the sidebar has the account links there).
  if (menu) await expect(page.getByRole('button', { name: email })).toBeVisible();
}

async function cookie(page: Page, name: string): Promise<string | undefined> {
  return (await page.context().cookies()).find((c) => c.name === name)?.value;
}

/** The token kept in the local database (IndexedDB 'Tinkerdesk', store keyvalue). */
function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(
    () =>
      new Promise<string | null>((resolve, reject) => {
        const open = indexedDB.open('Tinkerdesk', 1);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('keyvalue').objectStore('keyvalue').get('token');
          get.onsuccess = () => {
            resolve((get.result as string | undefined) ?? null);
            open.result.close();
          };
        };
      }),
  );
}

async function api(request: APIRequestContext, method: 'GET' | 'POST', path: string, token?: string, data?: unknown) {
  const response = await request.fetch(path, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(data !== undefined ? { data } : {}),
  });
  return { status: response.status(), body: (await response.json()) as Record<string, unknown> };
}

test.describe('sign up, the drop-down, reload, log out', () => {
  test('a new account is signed in, stays signed in after a reload, and logs out to /', async ({ page }) => {
    const errors = watchErrors(page);
    const email = newEmail('signup');
    await signUp(page, email);
    expect(await cookie(page, 'token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await cookie(page, 'loggedIn')).toBe('true');
    expect(await storedToken(page)).toBe(await cookie(page, 'token'));

    // The drop-down: the profile email, then Home, Account, Billing, Log out.
    await page.getByRole('button', { name: email }).click();
    const menu = page.getByRole('menu', { name: 'Account' });
    await expect(menu).toBeVisible();
    await expect(menu).toContainText(email);
    await expect(menu.getByRole('menuitem')).toHaveText(['Home', 'Account', 'Billing', 'Log out']);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();

    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account');
    await expect(page.getByRole('button', { name: email })).toBeVisible();
    await expect(page.getByText(email, { exact: true }).first()).toBeVisible();

    await page.getByRole('button', { name: email }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    expect(await cookie(page, 'token')).toBeUndefined();
    expect(await cookie(page, 'loggedIn')).toBeUndefined();
    expect(await storedToken(page)).toBeNull();
    await page.goto('/account');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
    expect(errors).toEqual([]);
  });

  test('the form checks the email pattern and the password length before sending', async ({ page }) => {
    await page.goto('/login#!/register');
    await page.getByLabel('Email').fill('not-an-email');
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
    await page.getByLabel('Email').fill('ada@example.com');
    await expect(page.getByText('Please enter a valid email address.')).toBeHidden();
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByText('Please choose a password of at least 8 characters.')).toBeVisible();
    await expect(page).toHaveURL(/#!\/register$/);
  });

  test('a taken email shows the internal conflict text', async ({ page, request }) => {
    const email = newEmail('taken');
    expect((await api(request, 'POST', '/v1/users', undefined, { email, password: PASSWORD })).status).toBe(201);
    await page.goto('/login#!/register');
    await page.getByLabel('Email').fill(email.toUpperCase());
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'The selected email address is already in use: did you log in with a different authentication provider? Maybe Github, Facebook or Google?',
    );
  });

  test('on a phone the sidebar shows Account, Billing and Log out', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await signUp(page, newEmail('phone'), PASSWORD, false);
    await page.getByRole('button', { name: 'Menu' }).click();
    const sidebar = page.getByRole('complementary', { name: 'Menu' });
    await expect(sidebar.getByRole('link', { name: 'Account' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Billing' })).toBeVisible();
    await sidebar.getByRole('button', { name: 'Log out' }).click();
    // The page may already be at '/': the logout is over when its navigation closed the sidebar.
    await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
    await expect(page).toHaveURL(/\/$/);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(sidebar.getByRole('link', { name: 'Sign In' })).toBeVisible();
  });
});

test.describe('sign in', () => {
  test('a wrong password shows error - detail; the right one signs in and returns to the page asked for', async ({ page, request }) => {
    const errors = watchErrors(page);
    const email = newEmail('signin');
    await api(request, 'POST', '/v1/users', undefined, { email, password: PASSWORD });
    await page.goto('/billing');
    await expect(page).toHaveURL(/\/login\?next=%2Fbilling#!\/login$/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // The answer comes after an argon2id check, which a loaded 2-core machine can make take seconds.
    await expect(page.getByRole('alert')).toHaveText(
      'The email address or the password is wrong. Check both and try again. Details: UNAUTHORIZED - the email address or the password is wrong',
      { timeout: 15_000 },
    );
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/billing$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Billing');
    expect(errors).toEqual([]);
  });
});

test.describe('sign-in limits', () => {
  test("the owner's right password gets in after others failed from the same address; ten wrong ones are refused with the wait", async ({
    page,
    request,
    newContext,
  }) => {
    const errors = watchErrors(page);
    const email = newEmail('owner');
    await api(request, 'POST', '/v1/users', undefined, { email, password: PASSWORD });
    // Neighbours behind the same address fail on other accounts many times.
    for (let i = 0; i < 60; i++) {
      const res = await request.post(`/v1/users/${encodeURIComponent(`neighbour-${i % 6}-${email}`)}/signin`, {
        data: { password: 'wrong one' },
      });
      expect([401, 429]).toContain(res.status());
    }
    await page.goto('/login#!/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('a typo in it');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // The answer comes after an argon2id check, which a loaded 2-core machine can make take seconds.
    await expect(page.getByRole('alert')).toHaveText(
      'The email address or the password is wrong. Check both and try again. Details: UNAUTHORIZED - the email address or the password is wrong',
      { timeout: 15_000 },
    );
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/account$/);
    await page.evaluate(() => localStorage.clear());
    await page.context().clearCookies();

    // Ten wrong passwords for the account from here: the next try is refused with the wait, and a way out.
    for (let i = 0; i < 10; i++) {
      expect((await request.post(`/v1/users/${encodeURIComponent(email)}/signin`, { data: { password: `wrong ${i}` } })).status()).toBe(
        401,
      );
    }
    const limited = await request.post(`/v1/users/${encodeURIComponent(email)}/signin`, { data: { password: PASSWORD } });
    expect(limited.status()).toBe(429);
    expect(Number(limited.headers()['retry-after'])).toBeGreaterThan(60);
    const other = await newContext();
    const fresh = await other.newPage();
    await fresh.goto('/login#!/login');
    await fresh.getByLabel('Email').fill(email);
    await fresh.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await fresh.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(fresh.getByRole('alert')).toHaveText(
      /^Too many tries in a short time\. Wait a little, then try again\.\s+Details: RATE_LIMITED - too many failed sign-ins; try again in \d+ minutes$/,
    );
    await fresh.getByRole('link', { name: 'choose a new password' }).click();
    await expect(fresh.getByLabel('Email')).toHaveValue(email);
    await other.close();
    expect(errors).toEqual([]);
  });
});

test.describe('profile', () => {
  test('name and IANA time zone are saved and kept', async ({ page }) => {
    await signUp(page, newEmail('profile'));
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Time zone').selectOption('Europe/London');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your profile is saved.' })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Name')).toHaveValue('Ada Lovelace');
    await expect(page.getByLabel('Time zone')).toHaveValue('Europe/London');
  });
});

test.describe('signed in', () => {
  test('the avatar letter follows the saved name, and the contact form comes filled in with name and email', async ({ page }) => {
    const errors = watchErrors(page);
    const email = newEmail('zed');
    await signUp(page, email);
    const avatar = page.getByRole('button', { name: email }).locator('.avatar');
    await expect(avatar).toHaveText('Z');
    await page.getByLabel('Name').fill('Beatrice Quill');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your profile is saved.' })).toBeVisible();
    await expect(avatar).toHaveText('B');

    await page.getByRole('link', { name: 'Contact', exact: true }).first().click();
    // The account page has an "Email" region too: look at the fields once the contact page is there.
    await expect(page.getByRole('heading', { level: 1, name: 'Contact' })).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveValue('Beatrice Quill');
    await expect(page.getByLabel('Email')).toHaveValue(email);
    // Loaded directly too (the session is known a moment after the page).
    await page.goto('/contact');
    await expect(page.getByLabel('Name')).toHaveValue('Beatrice Quill');
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(page.getByLabel('Question')).toHaveValue('');
    expect(errors).toEqual([]);
  });
});

test.describe('time zones', () => {
  // India: Chromium reports the zone by its old name, Asia/Calcutta (CLDR), as many browsers do.
  test.use({ timezoneId: 'Asia/Kolkata' });

  test("a new account starts on the browser's zone by its current name; old names are accepted and kept as the current ones", async ({
    page,
    request,
  }) => {
    const errors = watchErrors(page);
    const reported = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(['Asia/Calcutta', 'Asia/Kolkata']).toContain(reported);
    await signUp(page, newEmail('tz'));
    const zone = page.getByLabel('Time zone');
    await expect(zone).toHaveValue('Asia/Kolkata');
    await expect(zone.locator('option[value="Asia/Kolkata"]')).toHaveText('Asia/Kolkata');
    // The list has the current names only.
    for (const current of ['Europe/Kyiv', 'Asia/Ho_Chi_Minh', 'Asia/Kolkata'])
      await expect(zone.locator(`option[value="${current}"]`)).toHaveCount(1);
    for (const old of ['Europe/Kiev', 'Asia/Saigon', 'Asia/Calcutta']) await expect(zone.locator(`option[value="${old}"]`)).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Use this device's time zone/ })).toHaveCount(0);

    // The API takes an old name and keeps the current one; a name that is no zone is refused.
    const token = (await page.context().cookies()).find((c) => c.name === 'token')!.value;
    const saved = await api(request, 'POST', '/v1/users/me', token, { tz: 'Europe/Kiev' });
    expect(saved.status).toBe(200);
    expect(saved.body.tz).toBe('Europe/Kyiv');
    const refused = await api(request, 'POST', '/v1/users/me', token, { tz: 'Mars/Olympus' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('VALIDATION_FAILED');
    await page.reload();
    await expect(zone).toHaveValue('Europe/Kyiv');
    // Back to this device's zone in one click, saved by its current name.
    await page.getByRole('button', { name: "Use this device's time zone (Asia/Kolkata)" }).click();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your profile is saved.' })).toBeVisible();
    expect((await api(request, 'GET', '/v1/users/me', token)).body.tz).toBe('Asia/Kolkata');
    expect(errors).toEqual([]);
  });

  test('sign-up through the API: the tz hint is stored by its current name, and an unknown one leaves UTC', async ({ request }) => {
    const old = await api(request, 'POST', '/v1/users', undefined, { email: newEmail('tz-api'), password: PASSWORD, tz: 'Asia/Saigon' });
    expect(old.status).toBe(201);
    expect((old.body.profile as { tz: string }).tz).toBe('Asia/Ho_Chi_Minh');
    const unknown = await api(request, 'POST', '/v1/users', undefined, {
      email: newEmail('tz-api'),
      password: PASSWORD,
      tz: 'Nowhere/Land',
    });
    expect(unknown.status).toBe(201);
    expect((unknown.body.profile as { tz: string }).tz).toBe('UTC');
  });
});

test.describe('emails followed', () => {
  test('verification: the emailed link verifies the account', async ({ page }) => {
    const email = newEmail('verify');
    await signUp(page, email);
    await expect(page.getByText('Not verified')).toBeVisible();
    await page.getByRole('button', { name: 'Send verification again' }).click();
    await expect(page.getByText(`We sent a verification link to ${email}.`)).toBeVisible();
    const mail = await mailTo(email, /\/v1\/account\/verify\?token=/);
    const link = /(http:\/\/localhost:\d+\/v1\/account\/verify\?token=[A-Za-z0-9_-]+)/.exec(mail)![1]!;
    await page.goto(link);
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByText('Thank you: your email address is verified.')).toBeVisible();
    await expect(page.getByText('Verified', { exact: true })).toBeVisible();
    // The link works once.
    await page.goto(link);
    await expect(page.getByText(/That verification link is not valid any more/)).toBeVisible();
  });

  test('password reset: the emailed link sets a new password and ends the other sessions', async ({ page, newContext }) => {
    // Two browsers, a queued mail and two sign-ins with argon2id: more than the default 30 s on a busy machine.
    test.setTimeout(60_000);
    const email = newEmail('reset');
    await signUp(page, email);
    const other = await newContext();
    const otherPage = await other.newPage();
    // The email typed on the sign-in form goes along to "Forgot your password?".
    await otherPage.goto('/login#!/login');
    await otherPage.getByLabel('Email').fill(email);
    await otherPage.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(otherPage.getByRole('form', { name: 'Reset your password' })).toBeVisible();
    await expect(otherPage.getByLabel('Email')).toHaveValue(email);
    await otherPage.getByRole('button', { name: 'Send reset link' }).click();
    await expect(otherPage.getByRole('status')).toContainText(`If an account exists for ${email}`);
    const mail = await mailTo(email, /\/login#!\/reset\//);
    const link = /(http:\/\/localhost:\d+\/login#!\/reset\/[A-Za-z0-9_-]+)/.exec(mail)![1]!;
    await otherPage.goto(link);
    await expect(otherPage.getByRole('heading', { level: 1 })).toHaveText('Choose a new password');
    await otherPage.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await otherPage.getByLabel('Repeat the new password').fill('a brand new passphrase');
    await otherPage.getByRole('button', { name: 'Set new password' }).click();
    await expect(otherPage.getByRole('status')).toContainText('Your password has been changed');
    // The link is single use, and says so as soon as it is opened again, before any password is typed.
    await otherPage.goto('/');
    await otherPage.goto(link);
    await expect(otherPage.getByRole('alert')).toHaveText(/This reset link was used already or has expired/);
    await expect(otherPage.getByLabel('New password', { exact: true })).toHaveCount(0);
    await otherPage.getByRole('link', { name: 'Ask for a new link' }).click();
    await expect(otherPage.getByRole('form', { name: 'Reset your password' })).toBeVisible();
    await other.close();

    // The first browser's session ended with the change: a reload finds it gone (INVALID_TOKEN) and clears it.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
    expect(await cookie(page, 'token')).toBeUndefined();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/account$/);
  });
});

test.describe('session state machine with a token the server no longer accepts', () => {
  test('INVALID_TOKEN at startup clears the token and the cookies', async ({ page, request }) => {
    await signUp(page, newEmail('ended'));
    const token = (await cookie(page, 'token'))!;
    const me = await api(request, 'GET', '/v1/users/me', token);
    const guid = me.body.guid as string;
    expect((await api(request, 'POST', `/v1/users/${guid}/logout`, token)).status).toBe(200);
    await page.goto('/');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    expect(await cookie(page, 'token')).toBeUndefined();
    expect(await cookie(page, 'loggedIn')).toBeUndefined();
    expect(await storedToken(page)).toBeNull();
  });

  test('another server failure marks logged out but keeps the token; the next good start signs in again', async ({ page }) => {
    const email = newEmail('kept');
    await signUp(page, email);
    const token = await cookie(page, 'token');
    await page.route('**/v1/users/me?include=services', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, error: 'UNAVAILABLE', detail: 'down' }),
      }),
    );
    await page.goto('/');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    expect(await storedToken(page)).toBe(token);
    await page.unroute('**/v1/users/me?include=services');
    await page.reload();
    await expect(page.getByRole('button', { name: email })).toBeVisible();
  });

  test('a network failure clears the token', async ({ page }) => {
    await signUp(page, newEmail('offline'));
    await page.route('**/v1/users/me?include=services', (route) => route.abort('internetdisconnected'));
    await page.goto('/');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect.poll(() => storedToken(page)).toBeNull();
    expect(await cookie(page, 'token')).toBeUndefined();
  });
});

test.describe('codes in the URL hash', () => {
  test('tokenswap/{code} signs in and goes to /home from the root', async ({ page, request }) => {
    const email = newEmail('swap');
    const { body } = await api(request, 'POST', '/v1/users', undefined, { email, password: PASSWORD });
    const code = await api(request, 'POST', '/v1/users/me/codes', body.token as string, { kind: 'tokenswap' });
    expect(code.status).toBe(201);
    await page.goto(`/#tokenswap/${code.body.code as string}`);
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('button', { name: email })).toBeVisible();
  });

  test('impersonate/{code} signs the administrator in as the user; logging out returns to the administrator at /', async ({
    page,
    request,
  }) => {
    const admin = newEmail('admin');
    const user = newEmail('user');
    const adminAuth = await api(request, 'POST', '/v1/users', undefined, { email: admin, password: PASSWORD });
    const userAuth = await api(request, 'POST', '/v1/users', undefined, { email: user, password: PASSWORD });
    await promisify(execFile)('node', ['apps/identity/dist/cli.js', 'grant-admin', admin], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, DATABASE_URL: `postgres://postgres@localhost:5432/tinkerdesk_e2e_${process.env.E2E_RUN_ID}` },
    });
    // The administrator is signed in in this browser.
    await page.goto('/login#!/login');
    await page.getByLabel('Email').fill(admin);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('button', { name: admin })).toBeVisible();
    // The session shows in the top bar before sign-in's own navigation to /account has landed: a goto
    // meanwhile races it (as in oauth.e2e.ts), so wait for the account page first.
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account');
    const adminToken = (await cookie(page, 'token'))!;
    const userGuid = (userAuth.body.profile as { guid: string }).guid;
    const code = await api(request, 'POST', '/v1/users/me/codes', adminToken, { kind: 'impersonate', user: userGuid });
    expect(code.status, JSON.stringify(code.body)).toBe(201);
    expect(adminAuth.status).toBe(201);

    await page.goto(`/account#impersonate/${code.body.code as string}`);
    await expect(page.getByRole('button', { name: user })).toBeVisible();
    await expect(page).toHaveURL(/\/account$/);
    // Log out of the impersonation: the administrator's session comes back and the page reloads at '/'.
    await page.getByRole('button', { name: user }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: admin })).toBeVisible();
  });

  test('a used code shows an error and leaves the visitor signed out', async ({ page, request }) => {
    const { body } = await api(request, 'POST', '/v1/users', undefined, { email: newEmail('used'), password: PASSWORD });
    const code = await api(request, 'POST', '/v1/users/me/codes', body.token as string, { kind: 'tokenswap' });
    expect((await api(request, 'POST', `/v1/codes/${code.body.code as string}/exchange`)).status).toBe(200);
    await page.goto(`/tools/#tokenswap/${code.body.code as string}`);
    await expect(page.getByRole('alert').filter({ hasText: ' - ' })).toBeVisible();
    await expect(page).toHaveURL(/\/tools\/$/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
  });
});
