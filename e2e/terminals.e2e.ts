import { expect, type Page } from '@playwright/test';
import { type NewContext, registerHere, signedInPage, test, watchErrors } from './helpers.js';

/**
 * Terminals in Chromium against the real platform: two browsers of one account register themselves in
 * /account, one sends a link to the other, whose inbox shows it (open, copy, delete); this browser's
 * share sheet goes to its chosen destination and lands on the share success route; a registration the
 * server refuses shows its detail; push that the browser cannot give says so (docs/web-app.md#forms-and-error-texts).
 */
// Whole flows with two browsers and the service worker's first install: slow on a loaded 2-core machine.
test.describe.configure({ timeout: 120_000 });
// The suite blocks the service worker (playwright.config.ts): push and the share target are its work.
test.use({ serviceWorkers: 'allow' });

interface Account {
  token: string;
}

async function signUp(page: Page, tag: string): Promise<Account> {
  const email = `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await page.request.post('/v1/users', { data: { email, password: 'terminals in e2e' } });
  return { token: ((await res.json()) as { token: string }).token };
}

const signedIn = (newContext: NewContext, baseURL: string, account: Account, permissions: string[] = []): Promise<Page> =>
  signedInPage(newContext, baseURL, account.token, { permissions });

test('two browsers of one account: each registers, one sends a link, the other’s inbox opens, copies and deletes it', async ({
  newContext,
  baseURL,
  page,
}) => {
  const owner = await signUp(page, 'terminals');
  const phone = await signedIn(newContext, baseURL!, owner, ['clipboard-read', 'clipboard-write']);
  const laptop = await signedIn(newContext, baseURL!, owner, ['clipboard-read', 'clipboard-write']);
  const errors = watchErrors(phone);
  await registerHere(phone, 'Phone');
  await registerHere(laptop, 'Laptop');

  // The phone sees both and sends the laptop a link.
  await phone.reload();
  const list = phone.getByRole('list', { name: 'Your terminals' }).getByRole('listitem');
  await expect(list).toHaveCount(2);
  await expect(list.nth(0)).toContainText('Phone (this browser)');
  await expect(list.nth(1)).toContainText('Laptop');
  const send = phone.getByRole('form', { name: 'Send to a terminal' });
  await send.getByLabel('To').selectOption({ label: 'Laptop' });
  await send.getByLabel('Link or note').fill('https://example.com/read-later');
  await send.getByLabel('Description (optional)').fill('Read later');
  await send.getByRole('button', { name: 'Send' }).click();
  await expect(phone.getByRole('status').filter({ hasText: 'Sent to Laptop' })).toBeVisible();

  // The laptop's inbox has it: a link that opens in a new tab, copied, then deleted.
  await laptop.goto('/account#terminals');
  await laptop.getByRole('button', { name: 'Inbox of Laptop' }).click();
  const inbox = laptop.getByRole('region', { name: 'Inbox of Laptop' });
  const link = inbox.getByRole('link', { name: 'Read later' });
  await expect(link).toHaveAttribute('href', 'https://example.com/read-later');
  await expect(link).toHaveAttribute('target', '_blank');
  // The address itself and the sending terminal are shown, not only the description; the inbox has the focus.
  await expect(inbox.getByText('https://example.com/read-later', { exact: true })).toBeVisible();
  await expect(inbox.getByText(/^from Phone · /)).toBeVisible();
  await expect(inbox.getByRole('heading', { name: 'Inbox of Laptop' })).toBeFocused();
  await inbox.getByRole('button', { name: 'Copy Read later' }).click();
  expect(await laptop.evaluate(() => navigator.clipboard.readText())).toBe('https://example.com/read-later');
  await inbox.getByRole('button', { name: 'Delete Read later' }).click();
  await expect(inbox.getByText('Nothing here yet.')).toBeVisible();

  // The phone's share sheet goes to the laptop: the share target lands on the success route.
  await phone.getByLabel('Shares from this device’s share sheet go to').selectOption({ label: 'Laptop' });
  await expect(phone.getByLabel('Shares from this device’s share sheet go to')).toHaveValue(/[0-9a-f-]{36}/);
  await phone.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await phone.reload();
  await phone.evaluate(() => {
    const form = document.createElement('form');
    form.method = 'post';
    form.enctype = 'multipart/form-data';
    form.action = '/_share-target';
    for (const [name, value] of [
      ['title', 'A recipe'],
      ['text', 'Dinner tonight'],
      ['url', 'https://example.com/recipe'],
    ] as const) {
      const input = document.createElement('input');
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  });
  await expect(phone).toHaveURL(/\/account\/#\/terminals\/[0-9a-f-]{36}\/share\/success$/);
  await expect(phone.getByRole('status').filter({ hasText: 'Shared.' })).toContainText('It is in the inbox of Laptop.');
  await laptop.reload();
  await laptop.getByRole('button', { name: 'Inbox of Laptop' }).click();
  await expect(laptop.getByRole('region', { name: 'Inbox of Laptop' }).getByRole('link', { name: 'A recipe' })).toHaveAttribute(
    'href',
    'https://example.com/recipe',
  );

  // /account/#/terminals/{id}/inbox opens that inbox.
  const laptopId = await laptop.evaluate(async () => {
    const answer = await fetch('/v1/terminals', {
      headers: { authorization: `Bearer ${document.cookie.match(/token=([^;]+)/)?.[1] ?? ''}` },
    });
    return ((await answer.json()) as { terminals: Array<{ id: string; label: string }> }).terminals.find((t) => t.label === 'Laptop')!.id;
  });
  await phone.goto(`/account/#/terminals/${laptopId}/inbox`);
  await expect(phone.getByRole('region', { name: 'Inbox of Laptop' }).getByRole('link', { name: 'A recipe' })).toBeVisible();

  // Removing the laptop from the phone asks first.
  await phone.getByRole('button', { name: 'Remove Laptop' }).click();
  await phone.getByRole('group', { name: 'Remove Laptop?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(phone.getByRole('list', { name: 'Your terminals' }).getByRole('listitem')).toHaveCount(1);
  // The laptop finds it is no longer a terminal, and offers to register again.
  await laptop.reload();
  await expect(laptop.getByRole('form', { name: 'Register this browser' })).toBeVisible();
  expect(errors).toEqual([]);
  await phone.context().close();
  await laptop.context().close();
});

test('a registration the server refuses shows its detail', async ({ newContext, baseURL, page }) => {
  const owner = await signUp(page, 'terminals-full');
  for (let i = 0; i < 50; i++) {
    const res = await page.request.post('/v1/terminals', {
      headers: { authorization: `Bearer ${owner.token}` },
      data: { label: `T${i}`, send: true, receive: true, active: true, platform: 'Browser (desktop)', capabilities: [], remote: false },
    });
    expect(res.status()).toBe(201);
  }
  const here = await signedIn(newContext, baseURL!, owner);
  await here.goto('/account#terminals');
  await here.getByRole('form', { name: 'Register this browser' }).getByRole('button', { name: 'Register this browser' }).click();
  await expect(here.getByRole('alert')).toHaveText(
    'This clashes with something that exists already or has just changed. Details: CONFLICT - an account may register at most 50 terminals: remove one first',
  );
  await here.context().close();
});

test('push the browser cannot give is said so: permission denied, or push notifications unavailable', async ({
  newContext,
  baseURL,
  page,
}) => {
  const owner = await signUp(page, 'terminals-push');
  const granted = await signedIn(newContext, baseURL!, owner, ['notifications']);
  await registerHere(granted, 'Granted');
  await granted.getByLabel('Push notifications on this browser').click();
  // Headless Chromium has no push service: subscribing fails.
  const unavailable = granted.getByRole('alert');
  await expect(unavailable).toContainText('This browser cannot get push notifications here', { timeout: 20_000 });
  await expect(unavailable).toContainText('Details: push notifications unavailable');
  await expect(granted.getByLabel('Push notifications on this browser')).not.toBeChecked();
  await granted.context().close();

  const denied = await signedIn(newContext, baseURL!, owner);
  await denied.addInitScript(() => {
    Object.defineProperty(Notification, 'permission', { get: () => 'denied' });
  });
  await registerHere(denied, 'Denied');
  await denied.getByLabel('Push notifications on this browser').click();
  await expect(denied.getByRole('alert')).toContainText('This browser blocks notifications from this site. Allow them');
  await expect(denied.getByRole('alert')).toContainText('Details: permission denied');
  await denied.context().close();
});
