/**
 * Runs the loopback Stripe of the tests on its own (for Playwright's webServer or by hand):
 *   STRIPE_PORT=9500 STRIPE_ACCOUNTS=acct_1E2eSellerAbcd STRIPE_WEBHOOK_URL=http://localhost:18080/v1/webhooks/stripe \
 *   node libs/testing/dist/stripe-server-cli.js
 * Optional: STRIPE_SECRET_KEY (default sk_test_loopback), STRIPE_WEBHOOK_SECRET (default whsec_loopback).
 * Every account named in STRIPE_ACCOUNTS (comma-separated) can take charges. GET /health answers 200.
 */
import { startLoopbackStripe } from './stripe-server.js';

const port = Number(process.env.STRIPE_PORT ?? '0');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`Configuration error: STRIPE_PORT must be a port number (got "${process.env.STRIPE_PORT}")\n`);
  process.exit(78);
}
const accounts = (process.env.STRIPE_ACCOUNTS ?? '')
  .split(',')
  .map((id) => id.trim())
  .filter((id) => id !== '')
  .map((id) => ({ id, chargesEnabled: true, detailsSubmitted: true }));

const stripe = await startLoopbackStripe({
  port,
  accounts,
  ...(process.env.STRIPE_SECRET_KEY ? { secretKey: process.env.STRIPE_SECRET_KEY } : {}),
  ...(process.env.STRIPE_WEBHOOK_SECRET ? { webhookSecret: process.env.STRIPE_WEBHOOK_SECRET } : {}),
  ...(process.env.STRIPE_WEBHOOK_URL ? { webhookUrl: process.env.STRIPE_WEBHOOK_URL } : {}),
});
process.stdout.write(`Loopback Stripe ready at ${stripe.url}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void stripe.close().then(() => process.exit(0)));
}
