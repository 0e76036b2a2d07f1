import { expect, type Page } from '@playwright/test';
import { test, type NewContext } from './helpers.js';

const NOT_FOUND = 'That...is not here. Please...look again. Certainly...what you seek can be found :-D.';

/** Fails the test on any console error or uncaught page error. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

const ROUTES: Array<[string, string]> = [
  ['/', 'Small tools that get things done'],
  ['/home', 'Small tools that get things done'],
  ['/help', 'Help'],
  ['/pricing', 'Pricing'],
  ['/contact', 'Contact'],
  ['/about', 'About Tinkerdesk'],
  ['/faq', 'Frequently asked questions'],
  ['/terms', 'Terms of service'],
  ['/privacy', 'Privacy'],
  ['/security', 'Security'],
  ['/tools/', 'All tools'],
  ['/search?query=base64', 'Search: base64'],
  // Anonymous visitors to the account area are sent to sign in.
  ['/account', 'Sign in'],
  ['/billing', 'Sign in'],
  ['/integrations/hardware/', 'Hardware integration'],
  ['/tools/guidgenerator/', 'GUID generator'],
];

test.describe('shell routes', () => {
  for (const [path, heading] of ROUTES) {
    test(`${path} renders without console errors`, async ({ page }) => {
      const errors = watchErrors(page);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(heading);
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByRole('contentinfo')).toContainText(`© 2022–${new Date().getFullYear()} Tinkerdesk`);
      expect(errors).toEqual([]);
    });
  }

  test('the 404 text on /404 and on an unknown path', async ({ page }) => {
    const errors = watchErrors(page);
    for (const path of ['/404', '/no/such/page', '/tools/not-a-tool/']) {
      await page.goto(path);
      const text = page.getByText(NOT_FOUND, { exact: true });
      await expect(text).toBeVisible();
      // One text node holding exactly NOT_FOUND_TEXT.
      expect(await text.evaluate((el) => Array.from(el.childNodes).map((n) => [n.nodeType, n.textContent]))).toEqual([[3, NOT_FOUND]]);
    }
    expect(errors).toEqual([]);
  });

  test('deep links to sign up and sign in load directly', async ({ page }) => {
    await page.goto('/login#!/register');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign up');
    await page.goto('/login#!/login');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  });

  test('each page sets its document title', async ({ page }) => {
    const titles: Array<[string, string]> = [
      ['/', 'Tinkerdesk: online tools that run in your browser'],
      ['/help', 'Help · Tinkerdesk'],
      ['/tools/', 'All tools · Tinkerdesk'],
      ['/tools/guidgenerator/', 'GUID generator · Tinkerdesk'],
      ['/search?query=json', 'Search: json · Tinkerdesk'],
      ['/login#!/register', 'Sign up · Tinkerdesk'],
      ['/no/such/page', 'Page not found · Tinkerdesk'],
    ];
    for (const [path, title] of titles) {
      await page.goto(path);
      await expect(page).toHaveTitle(title);
    }
  });

  test('/tools/ lists all 25 tools, none coming, and a card opens its tool', async ({ page }) => {
    await page.goto('/tools/');
    await expect(page.locator('main .tool-card')).toHaveCount(25);
    await expect(page.locator('main .tool-card').filter({ hasText: 'Coming soon' })).toHaveCount(0);
    await page.getByRole('link', { name: /Google Wallet pass/ }).click();
    await expect(page).toHaveURL(/\/tools\/wallet\/google\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Google Wallet pass');
    await expect(page.getByRole('main').locator('input, textarea, select').first()).toBeVisible();
  });

  /**
   * Opens `path` at `width` with JavaScript off (the static shell alone: `onShell` checks it), then with the
   * app (`onApp` checks it once the app has rendered: its layout's skip link is there, the shell has none);
   * the boxes of `selectors` are the same in both: nothing moves when the app replaces the shell.
   */
  async function shellThenApp(
    newContext: NewContext,
    path: string,
    width: number,
    selectors: readonly string[],
    onShell: (shell: Page) => Promise<void>,
    onApp: (page: Page) => Promise<void>,
  ): Promise<void> {
    const boxes = async (page: Page) => Promise.all(selectors.map(async (selector) => page.locator(selector).first().boundingBox()));
    const still = await newContext({ viewport: { width, height: 800 }, javaScriptEnabled: false });
    const shell = await still.newPage();
    await shell.goto(path);
    await expect(shell.locator('main h1')).toBeVisible();
    const before = await boxes(shell);
    await onShell(shell);
    await still.close();
    expect(before.every((box) => box !== null && box.height > 0)).toBe(true);

    const live = await newContext({ viewport: { width, height: 800 } });
    const page = await live.newPage();
    const errors = watchErrors(page);
    await page.goto(path);
    await expect(page.locator('a.skip-link')).toHaveCount(1);
    expect(await boxes(page)).toEqual(before);
    await onApp(page);
    expect(errors).toEqual([]);
    await live.close();
  }

  // The pages that are the same for every visitor paint from the HTML (their static shell) before any
  // script runs; the app replaces the shell with the same page: the heading and the lead paragraph
  // (each page's largest paint) keep their place and size, so nothing moves and the largest paint stays.
  // The barcode creator's shell holds its whole form (inert until the app replaces it): the settings and
  // the hint under the last one (its largest paint) keep their place and size too.
  const whole = ['main .tool-settings', '#barcode-options-hint'];
  for (const [path, width, more] of [
    ['/', 375, []],
    ['/', 1280, []],
    ['/tools/', 375, []],
    ['/tools/converters/base64/encode/', 375, []],
    ['/tools/displaybarcode/', 375, whole],
    ['/tools/displaybarcode/', 1280, whole],
  ] as const) {
    test(`${path} at ${width} px paints its page from the HTML, where the app then shows the same`, async ({ newContext }) => {
      await shellThenApp(
        newContext,
        path,
        width,
        ['main h1', 'main .lead', ...more],
        async (shell) => {
          // What the shell paints of a tool's form cannot be used before the app has taken it over.
          if (more.length > 0) await expect(shell.locator('main [inert] select').first()).toBeAttached();
        },
        async (page) => expect(page.locator('main [inert]')).toHaveCount(0),
      );
    });
  }

  // The barcode creator's shell paints its form at its defaults (QR Code): an address whose query sets
  // other settings gets the tool's header alone, so nothing is painted that the app then changes; the
  // heading and the lead keep their place and size, and the app shows the query's settings.
  for (const width of [375, 1280]) {
    test(`/tools/displaybarcode/?type=ean13 at ${width} px paints no setting the app then changes`, async ({ newContext }) => {
      await shellThenApp(
        newContext,
        '/tools/displaybarcode/?type=ean13&height=20',
        width,
        ['main h1', 'main .lead'],
        async (shell) => {
          await expect(shell.locator('main h1')).toHaveText('Barcode creator');
          await expect(shell.locator('main select, main input, main .tool-settings')).toHaveCount(0);
          await expect(shell.getByRole('main')).not.toContainText('QR Code');
          await shell.screenshot({ path: test.info().outputPath(`barcode-query-shell-${width}.png`) });
        },
        async (page) => {
          await expect(page.getByLabel('Type')).toHaveValue('ean13');
          await expect(page.getByLabel('Bar height (mm)')).toHaveValue('20');
          await page.screenshot({ path: test.info().outputPath(`barcode-query-app-${width}.png`) });
        },
      );
    });
  }

  test('per-route resource links appear only where a route has them', async ({ page }) => {
    await page.goto('/tools/converters/base64/encode/');
    await expect(page.getByRole('contentinfo').getByRole('link', { name: /RFC 4648/ })).toBeVisible();
    await page.goto('/about');
    await expect(page.getByRole('contentinfo').getByRole('heading', { name: 'Resources' })).toHaveCount(0);
  });
});

test.describe('All Tools panel', () => {
  test('opens from the button, lists the tools and closes on an outside click and Escape', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const button = page.getByRole('button', { name: 'All Tools' });
    const panel = page.locator('#all-tools-panel');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(panel).toBeHidden();
    // Its list is rendered once the pointer or the focus reaches the button, not with the page (the app has
    // rendered: the button is the app's).
    await expect(panel.locator('a')).toHaveCount(0);
    await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('link', { name: 'Password generator' })).toBeVisible();
    await expect(panel.getByRole('link')).toHaveCount(26);
    await expect(panel.getByRole('link', { name: /Google Wallet pass/ })).not.toContainText('Coming soon');
    await page.mouse.click(640, 760);
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(panel).toBeHidden();
    await button.click();
    await expect(panel).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(button).toBeFocused();
  });

  test('the click on the dimmed page that closes the panel does not follow the link beneath it', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/tools/');
    const button = page.getByRole('button', { name: 'All Tools' });
    await button.click();
    const panel = page.locator('#all-tools-panel');
    await expect(panel).toBeVisible();
    // A point on the dimmed page, below the panel, with a link under it.
    const point = await panel.evaluate((el) => {
      const bottom = el.getBoundingClientRect().bottom;
      for (let y = Math.ceil(bottom) + 8; y < window.innerHeight; y += 8)
        for (let x = 80; x < window.innerWidth - 80; x += 40) {
          const hit = document.elementFromPoint(x, y)?.closest('a');
          if (hit && !el.contains(hit)) return { x, y, href: hit.getAttribute('href') };
        }
      return null;
    });
    expect(point).not.toBeNull();
    await page.mouse.click(point!.x, point!.y);
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(page).toHaveURL(/\/tools\/$/);
    // The next click acts as usual.
    await page.mouse.click(point!.x, point!.y);
    await expect(page).toHaveURL(new RegExp(`${point!.href}$`));
  });

  test('focus leaving the panel (Tab past its last link) closes it', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const button = page.getByRole('button', { name: 'All Tools' });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const panel = page.locator('#all-tools-panel');
    let presses = 0;
    do {
      await page.keyboard.press('Tab');
      presses++;
    } while (
      presses < 60 &&
      (await panel.evaluate((el) => el.contains(document.activeElement) || document.activeElement?.closest('.all-tools') !== null))
    );
    expect(presses).toBeGreaterThan(20);
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(panel).toBeHidden();
  });

  test('slides over 500 ms', async ({ page }) => {
    await page.goto('/');
    const duration = await page.locator('#all-tools-panel').evaluate((el) => getComputedStyle(el).transitionDuration);
    expect(duration.split(',').map((d) => d.trim())).toContain('0.5s');
  });

  test('following a tool closes the panel', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'All Tools' }).click();
    await page.locator('#all-tools-panel').getByRole('link', { name: 'GUID generator' }).click();
    await expect(page).toHaveURL(/\/tools\/guidgenerator\/$/);
    await expect(page.locator('#all-tools-panel')).toBeHidden();
  });
});

test.describe('search', () => {
  test('Enter opens /search?query=... with matching tools', async ({ page }) => {
    await page.goto('/');
    const box = page.getByRole('banner').getByRole('combobox', { name: 'Search tools' });
    await box.fill('json');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/search\?query=json$/);
    const results = page.getByRole('list', { name: 'Search results' });
    await expect(results.getByRole('link', { name: /YAML to JSON/ })).toBeVisible();
    await expect(results.getByRole('link', { name: /JSON to YAML/ })).toBeVisible();
  });

  test('the icon submits too, and small typos still find the tool', async ({ page }) => {
    await page.goto('/help');
    await page.getByRole('banner').getByRole('combobox', { name: 'Search tools' }).fill('base46');
    await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/search\?query=base46$/);
    await expect(page.getByRole('list', { name: 'Search results' }).getByRole('link', { name: /Base64 encode/ })).toBeVisible();
  });

  test('suggestions as you type, by keyboard only: arrows highlight, Enter opens the tool, Escape closes', async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto('/help');
    // Tab to the top bar's search box (after the skip link and the logo), then type.
    const box = page.getByRole('banner').getByRole('combobox', { name: 'Search tools' });
    for (let i = 0; i < 10 && !(await box.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(box).toBeFocused();
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.type('b64');
    const list = page.getByRole('listbox', { name: 'Suggested tools' });
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await expect(list.getByRole('option')).toHaveCount(4);
    await expect(list.getByRole('option').first()).toContainText('Base64');
    await page.keyboard.press('ArrowDown');
    const first = list.getByRole('option').nth(0);
    await expect(first).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await expect(first).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowUp'); // wraps to the last
    await expect(list.getByRole('option').last()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Escape');
    await expect(list).toBeHidden();
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await expect(box).toHaveValue('b64');
    await expect(box).toBeFocused();

    // A word typed letter by letter never loses a tool on the way: qr c, qr co ... qr codes.
    await box.fill('');
    await page.keyboard.type('qr c');
    await expect(list.getByRole('option')).toHaveCount(4);
    for (const letter of 'odes') {
      await page.keyboard.type(letter);
      await expect(list.getByRole('option')).toHaveCount(4);
    }

    await box.fill('');
    await page.keyboard.type('jwt');
    await expect(list.getByRole('option')).toHaveText([/^Base64 decode/]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/tools\/converters\/base64\/decode\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Base64 decode');

    // Nothing highlighted: Enter searches (docs/web-app.md#tools-in-the-browser).
    await box.focus();
    await page.keyboard.type('hex');
    await expect(list.getByRole('option')).toHaveCount(2);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/search\?query=hex$/);
    const results = page.getByRole('list', { name: 'Search results' });
    await expect(results.getByRole('link')).toHaveCount(2);
    await expect(results.getByRole('link', { name: /Base64 decode/ })).toBeVisible();
    await expect(results.getByRole('link', { name: /Data URI to image or file/ })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('a JWT pasted into Base64 decode is explained, and its payload decodes', async ({ page }) => {
    const jwt =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSIsImlhdCI6MTUxNjIzOTAyMn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
    await page.goto('/tools/converters/base64/decode/');
    const input = page.getByLabel('Input', { exact: true });
    await input.fill(jwt);
    await expect(page.getByRole('alert')).toContainText('This looks like a JWT');
    await input.fill(jwt.split('.')[1]!);
    await expect(page.getByLabel('Output', { exact: true })).toHaveValue('{"sub":"1234567890","name":"Ada","iat":1516239022}');
  });

  test('an empty search does nothing and no match shows an empty state', async ({ page }) => {
    await page.goto('/help');
    const box = page.getByRole('banner').getByRole('combobox', { name: 'Search tools' });
    await box.fill('   ');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/help$/);
    await box.fill('spreadsheet macros');
    await box.press('Enter');
    await expect(page.getByRole('status')).toContainText('No tools match');
  });
});

test.describe('mobile', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('the menu button toggles the sidebar with search, Help, Pricing, Contact, Sign Up and Sign In', async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto('/');
    const menu = page.getByRole('button', { name: 'Menu' });
    const sidebar = page.getByRole('complementary', { name: 'Menu' });
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(sidebar).toBeHidden();
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(sidebar).toBeVisible();
    for (const name of ['Help', 'Pricing', 'Contact', 'Sign Up', 'Sign In']) {
      await expect(sidebar.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(sidebar.getByRole('combobox', { name: 'Search tools' })).toBeVisible();
    await menu.click();
    await expect(sidebar).toBeHidden();
    await menu.click();
    await expect(sidebar).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(sidebar).toBeHidden();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await menu.click();
    await sidebar.getByRole('link', { name: 'Pricing', exact: true }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(sidebar).toBeHidden();
    await menu.click();
    await expect(sidebar).toBeVisible();
    await sidebar.getByRole('combobox', { name: 'Search tools' }).fill('qr');
    await sidebar.getByRole('combobox', { name: 'Search tools' }).press('Enter');
    await expect(page).toHaveURL(/\/search\?query=qr$/);
    await expect(sidebar).toBeHidden();
    // The sidebar's box suggests too, and a tapped suggestion opens the tool.
    await menu.click();
    await expect(sidebar).toBeVisible();
    await sidebar.getByRole('combobox', { name: 'Search tools' }).fill('password');
    await sidebar
      .getByRole('listbox', { name: 'Suggested tools' })
      .getByRole('option', { name: /^Password generator/ })
      .click();
    await expect(page).toHaveURL(/\/tools\/passwordgenerator\/$/);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    expect(errors).toEqual([]);
  });
});

test.describe('keyboard', () => {
  test('a skip link leads to the main content', async ({ page }) => {
    await page.goto('/help');
    // The first Tab once the page is there (before, only the static frame of index.html is shown).
    await expect(page.getByRole('heading', { level: 1, name: 'Help' })).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#main$/);
  });
});

test.describe('contact form', () => {
  // The form's own behaviour (validation, error text, retry) against a stand-in answer...
  test('checks the email pattern, shows the server error as error - detail, then thanks', async ({ page }) => {
    const sent: unknown[] = [];
    await page.route('**/v1/contact', async (route) => {
      sent.push(route.request().postDataJSON());
      if (sent.length === 1) {
        await route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({ success: false, error: 'VALIDATION_FAILED', detail: 'question must be shorter than 5000 characters' }),
        });
      } else {
        await route.fulfill({ status: 201, contentType: 'application/json', body: JSON.stringify({ success: true }) });
      }
    });
    await page.goto('/contact');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText('Please tell us your name.')).toBeVisible();
    expect(sent).toHaveLength(0);
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Question').fill('How do I export my data?');
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
    await page.getByLabel('Email').fill('ada@example.com');
    await expect(page.getByText('Please enter a valid email address.')).toHaveCount(0);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('alert')).toContainText('Details: VALIDATION_FAILED - question must be shorter than 5000 characters');
    expect(sent[0]).toEqual({ name: 'Ada', email: 'ada@example.com', question: 'How do I export my data?' });
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('status')).toContainText('Thank you, Ada');
    expect(sent).toHaveLength(2);
  });

  // ...and the same form against the real identity service through the gateway.
  test('sends to the real /v1/contact, and shows the server validation error as error - detail', async ({ page }) => {
    await page.goto('/contact');
    await page.getByLabel('Name').fill('Grace');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Question').fill('x'.repeat(5001));
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('alert')).toContainText(
      'Details: VALIDATION_FAILED - question must be shorter than or equal to 5000 characters',
    );
    await page.getByLabel('Question').fill('Do you have an API for barcodes?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('status')).toContainText('Thank you, Grace');
  });
});
