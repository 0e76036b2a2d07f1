import { expect, test } from '@playwright/test';

// The platform as a browser meets it: the gateway's /v1 answers next to the web app.
test('the API docs open on the quick start, show each operation with curl and typed-client samples, and load nothing from elsewhere', async ({
  page,
  baseURL,
}, testInfo) => {
  const origin = new URL(baseURL!).origin;
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });
  // A CSP violation or a failed load is a console error.
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/v1/docs');
  await expect(page.getByRole('heading', { name: 'Tinkerdesk API', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Quick start' })).toBeVisible();
  await expect(page.getByText('1. Get a token.')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('docs-1280.png') });

  // One operation: its curl sample (the default), then the typed client's from the samples menu.
  await page.goto('/v1/docs#tag/orders/POST/v1/orders/{id}/reply');
  const operation = page.locator('section[id$="tag/orders/POST/v1/orders/{id}/reply"]');
  await expect(operation.getByRole('heading', { name: /Write to the other side of an order/ })).toBeVisible();
  await expect(operation.getByText(/curl .*\/v1\/orders\/.*\/reply/)).toBeVisible();
  await operation.getByRole('button', { name: /Curl/ }).click();
  await page.getByRole('option', { name: 'Typed client (@tinkerdesk/api-client)' }).click();
  await expect(operation.getByText("import { createApiClient } from '@tinkerdesk/api-client';")).toBeVisible();
  await expect(operation.getByText("await api.POST('/v1/orders/{id}/reply', {")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('docs-operation-1280.png') });

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/v1/docs');
  await expect(page.getByRole('heading', { name: 'Quick start' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('docs-375.png') });

  expect(problems).toEqual([]);
  expect(requests.length).toBeGreaterThan(3);
  expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  expect(requests).toEqual(expect.arrayContaining([`${origin}/v1/docs/scalar.js`, `${origin}/v1/openapi.json`]));
});

test('health reports every service up through the real gateway', async ({ request }) => {
  const res = await request.get('/v1/health');
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { status: string; services: Record<string, { status: string }> };
  expect(body.status).toBe('ok');
  expect(Object.keys(body.services).sort()).toEqual(['commerce', 'conversion', 'identity', 'terminals']);
});
