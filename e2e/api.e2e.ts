import { expect, test } from '@playwright/test';

// The platform as a browser meets it: the gateway's /v1 answers next to the web app.
test('the API docs page renders in the browser without errors', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/v1/docs');
  await expect(page.locator('section.swagger-ui')).toBeVisible();
  await expect(page.getByText('/v1/convert/upload').first()).toBeVisible();
  await expect(page.getByText('Tinkerdesk API').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('health reports every service up through the real gateway', async ({ request }) => {
  const res = await request.get('/v1/health');
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { status: string; services: Record<string, { status: string }> };
  expect(body.status).toBe('ok');
  expect(Object.keys(body.services).sort()).toEqual(['commerce', 'conversion', 'identity', 'terminals']);
});
