import { expect, test, type Page } from '@playwright/test';
import { CAPABILITIES, type Capability } from '../apps/web/src/shared/capabilities.js';
import { watchErrors } from './helpers.js';

// The site tells the truth: every sentence about a capability that is not built yet carries a
// "Coming soon" mark (an ancestor with data-coming), and once a capability is built (its flag in
// apps/web/src/shared/capabilities.ts) no mark of it is left. Tool counts count only working tools,
// and every tool without a page is marked where it is listed.

/** How pages speak of each capability. */
const WORDS: Record<Capability, RegExp> = {
  serverConversion: /server conversion|convert\w* (\w+ )*on the server|converted by a worker/i,
  savedFiles: /save(d)? (it )?to (my|your) files|saved files|my files/i,
  selling: /\bsell|public page|\border(s|ed)?\b|receipt|payment provider/i,
  requests: /payment request|timeline/i,
  billing: /payment method|\bplans?\b/i,
  terminals: /terminal|push notification/i,
  beeper: /beeper/i,
  oauthApps: /oauth|act for (other )?(people|users)/i,
};

const PAGES = [
  '/',
  '/help',
  '/pricing',
  '/about',
  '/faq',
  '/terms',
  '/privacy',
  '/security',
  '/contact',
  '/tools/',
  '/integrations/hardware/',
];

/** The texts on the page that speak of a capability not built, without a Coming-soon mark around them. */
async function unmarkedClaims(page: Page): Promise<string[]> {
  const words = Object.entries(WORDS)
    .filter(([what]) => !CAPABILITIES[what as Capability].built)
    .map(([what, re]) => [what, re.source, re.flags] as const);
  return page.evaluate((words) => {
    const out: string[] = [];
    const blocks = document.querySelectorAll(
      'main p, main li, main dt, main dd, main h1, main h2, main h3, main small, footer p, footer li',
    );
    for (const el of blocks) {
      // The block's own words: what is inside a mark of its own does not count against it.
      const own = el.cloneNode(true) as Element;
      own.querySelectorAll('[data-coming]').forEach((n) => n.remove());
      const text = (own.textContent ?? '').replace(/\s+/g, ' ').trim();
      for (const [what, source, flags] of words) {
        if (new RegExp(source, flags).test(text) && !el.closest('[data-coming]')) out.push(`${what}: "${text.slice(0, 120)}"`);
      }
    }
    return [...new Set(out)];
  }, words);
}

test('every claim about a capability not built is marked Coming soon, and a built one is not', async ({ page }) => {
  test.setTimeout(60_000);
  const errors = watchErrors(page);
  for (const path of PAGES) {
    await page.goto(path);
    await expect(page.locator('main h1')).toBeVisible();
    expect({ path, unmarked: await unmarkedClaims(page) }).toEqual({ path, unmarked: [] });
    const marks = await page.locator('[data-coming]').evaluateAll((els) => els.map((e) => e.getAttribute('data-coming')));
    for (const mark of marks) {
      expect({ path, mark, built: CAPABILITIES[mark as Capability].built }).toEqual({ path, mark, built: false });
    }
    // Each mark says so in words a person reads.
    for (const badge of await page.locator('[data-coming] > .badge-coming').all()) await expect(badge).toHaveText('Coming soon');
  }
  expect(errors).toEqual([]);
});

test('tool counts count working tools, and every list marks the tools without a page (none are left)', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/');
  const cards = page.locator('main .tool-card');
  // The page loads lazily: count once its cards are there (they render together).
  await expect(cards.first()).toBeVisible();
  const total = await cards.count();
  const coming = await cards.filter({ hasText: 'Coming soon' }).count();
  // The wallet pass tool was the last one without a page (issue 19).
  expect(coming).toBe(0);

  await page.goto('/');
  await expect(page.getByRole('link', { name: `Browse all ${total - coming} tools` })).toBeVisible();
  await expect(page.getByText(`Search, or browse ${total - coming} tools in`)).toBeVisible();

  await page.getByRole('button', { name: 'All Tools' }).click();
  const panel = page.getByRole('navigation', { name: 'All tools' });
  await expect(panel.getByRole('link')).toHaveCount(total + 1);
  await expect(panel.getByRole('link').filter({ hasText: 'Coming soon' })).toHaveCount(coming);
  await expect(panel.getByRole('link', { name: /Google Wallet pass/ })).not.toContainText('Coming soon');
  expect(errors).toEqual([]);
});
