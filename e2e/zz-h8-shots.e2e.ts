import { expect, test } from '@playwright/test';

// Screenshots for looking at (not committed): /account's shop link and /s/{slug}, at 1280 and 375 px.
test('shop link screenshots', async ({ browser, baseURL }) => {
  for (const width of [1280, 375]) {
    const context = await browser.newContext({ baseURL, viewport: { width, height: 900 } });
    const page = await context.newPage();
    const email = `shots-${width}-${Date.now()}@example.com`;
    const body = (await (await page.request.post('/v1/users', { data: { email, password: 'shop links in e2e' } })).json()) as {
      token: string;
      profile: { guid: string };
    };
    const auth = { authorization: `Bearer ${body.token}` };
    const slug = `a-rather-long-shop-name-${width}-${Date.now().toString(36)}`.slice(0, 40).replace(/-$/, '');
    const s = await page.request.post(`/v1/users/${body.profile.guid}/services`, {
      data: { name: 'A rather long shop name', provider: 'sandbox', vendor: 'digital', account: 'sandbox_shots', slug },
      headers: auth,
    });
    const sid = ((await s.json()) as { service: { id: string } }).service.id;
    await page.request.post(`/v1/users/${body.profile.guid}/services/${sid}/products`, { data: { name: 'Zine', price: 1250 }, headers: auth });
    await page.request.post(`/v1/users/${body.profile.guid}/services`, {
      data: { name: 'No slug shop', provider: 'sandbox', vendor: 'digital', account: 'sandbox_shots2' },
      headers: auth,
    });
    const host = new URL(baseURL!).hostname;
    await context.addCookies([
      { name: 'token', value: body.token, domain: host, path: '/' },
      { name: 'loggedIn', value: 'true', domain: host, path: '/' },
    ]);
    await page.goto('/account#selling');
    await expect(page.getByRole('img', { name: /^QR code of .*\/s\// })).toBeVisible();
    await page.locator('#selling').screenshot({ path: `/tmp/h8-shots/account-${width}.png` });
    await page.getByRole('button', { name: 'Edit service' }).first().click();
    await page.locator('#selling').screenshot({ path: `/tmp/h8-shots/form-${width}.png` });
    await page.goto(`/s/${slug}`);
    await expect(page.getByRole('heading', { name: 'Zine' })).toBeVisible();
    await page.screenshot({ path: `/tmp/h8-shots/shop-${width}.png`, fullPage: true });
    await page.goto('/s/nothing-here');
    await page.screenshot({ path: `/tmp/h8-shots/none-${width}.png` });
  }
});
