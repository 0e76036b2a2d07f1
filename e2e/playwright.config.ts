import { defineConfig, devices } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The end-to-end suite drives Debian's Chromium against the real platform (gateway, four services,
// a conversion worker), started by `scripts/start.mjs` with a throwaway database and its own NATS
// and Redis prefixes, so it never touches `npm start`'s data.
const run = (process.env.E2E_RUN_ID ??= randomBytes(4).toString('hex'));
const port = Number(process.env.E2E_PORT ?? 18080);
// Mail is written as .eml files under DATA_DIR/mail (no SMTP_URL): the account tests read and follow them.
// A real OpenID Connect provider on loopback stands in for Google (social sign-in tests).
const oidcPort = Number(process.env.E2E_OIDC_PORT ?? port + 1);
const OIDC_CLIENT = { id: 'tinkerdesk-e2e', secret: `e2e-secret-${run}` };
const dataDir = (process.env.E2E_DATA_DIR ??= join(tmpdir(), `tinkerdesk-e2e-${run}`));
// A loopback server that speaks Stripe's API and hosts its checkout page stands in for Stripe (commerce tests).
const stripePort = Number(process.env.E2E_STRIPE_PORT ?? port + 2);
const E2E_STRIPE_ACCOUNT = 'acct_1E2eSellerAbcd';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: true,
  // Generous for a loaded 2-core machine (two workers, Chromium and the seven platform processes
  // share it): the whole-flow tests (terminals, billing, sign-in limits) measured 20-30 s alone.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  globalTeardown: './global-teardown.ts',
  outputDir: '../test-results/e2e',
  use: {
    baseURL: `http://localhost:${port}`,
    // Recording a trace of every test costs about 15% of the suite's time (measured on shell + commerce: 131 s
    // with, 112 s without): record on the retry of a failed test (CI retries once); locally, rerun a failing
    // test with `--trace on` to get one.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    // The site's service worker precaches the whole build (332 files, about 400 requests) in every new context
    // once a page has loaded: CPU that a loaded 2-core machine pays in every test, for nothing most tests look
    // at. It is blocked in every context (contexts made by hand with browser.newContext inherit it); the tests
    // of the worker itself, offline use and push opt back in with test.use({ serviceWorkers: 'allow' }).
    serviceWorkers: 'block',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: [
    {
      command: 'node libs/testing/dist/oidc-provider-cli.js',
      cwd: '..',
      url: `http://127.0.0.1:${oidcPort}/.well-known/openid-configuration`,
      timeout: 30_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        OIDC_PORT: String(oidcPort),
        OIDC_CLIENT_ID: OIDC_CLIENT.id,
        OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
        OIDC_REDIRECT_URIS: `http://localhost:${port}/login/oauth/google`,
      },
    },
    {
      command: 'node libs/testing/dist/stripe-server-cli.js',
      cwd: '..',
      url: `http://127.0.0.1:${stripePort}/health`,
      timeout: 30_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        STRIPE_PORT: String(stripePort),
        STRIPE_ACCOUNTS: E2E_STRIPE_ACCOUNT,
        STRIPE_WEBHOOK_URL: `http://localhost:${port}/v1/webhooks/stripe`,
      },
    },
    {
      command: 'node scripts/start.mjs --no-build',
      cwd: '..',
      url: `http://localhost:${port}/v1/health/ready`,
      timeout: 90_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        PUBLIC_URL: `http://localhost:${port}`,
        DATABASE_URL: `postgres://postgres@localhost:5432/tinkerdesk_e2e_${run}`,
        NATS_PREFIX: `e2e${run}`,
        REDIS_PREFIX: `e2e${run}`,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // JetStream reserves each object store's cap on its disk (10 GiB by default): a test run asks for less.
        CONVERSION_STORE_MAX_BYTES: String(1024 ** 3),
        FILES_STORE_MAX_BYTES: String(256 * 1024 ** 2),
        // The account tests sign up more than the per-address sign-up limit allows from one address.
        RATE_LIMIT_FACTOR: '100',
        // Two test workers, their Chromiums and the seven processes share two cores: a busy service can
        // answer after the production deadline (1.5 s) without being broken, and a page whose session check
        // meets 503 three times shows a signed-in user as signed out. The integration tests allow the same.
        RPC_TIMEOUT_MS: '5000',
        // A plan whose charge a test moved to now is charged within seconds (live-updates.e2e.ts), not a minute.
        PLAN_SWEEP_SECONDS: '5',
        // Every browser of the tests signs in from 127.0.0.1: no address-wide ceiling on failed sign-ins.
        SIGN_IN_ADDRESS_ACCOUNTS: '1000000',
        // "Load from URL" and URL conversions reach the tests' own loopback sites.
        FETCH_ALLOWED_HOSTS: '127.0.0.1',
        OIDC_GOOGLE_ISSUER: `http://127.0.0.1:${oidcPort}`,
        OIDC_GOOGLE_CLIENT_ID: OIDC_CLIENT.id,
        OIDC_GOOGLE_CLIENT_SECRET: OIDC_CLIENT.secret,
        STRIPE_SECRET_KEY: 'sk_test_loopback',
        STRIPE_WEBHOOK_SECRET: 'whsec_loopback',
        STRIPE_API_URL: `http://127.0.0.1:${stripePort}`,
      },
    },
  ],
});
