import { expect } from '@jest/globals';
import {
  startLoopbackSmtp,
  type Shop,
  startLoopbackStripe,
  TestPlatform,
  type LoopbackSmtp,
  type LoopbackStripe,
  type LoopbackStripeAccount,
} from '@tinkerdesk/testing';

/** Identity, commerce and the gateway with Stripe pointed at a loopback Stripe server (its webhooks back at the gateway) and a loopback SMTP server. */
export interface StripePlatform {
  platform: TestPlatform;
  stripe: LoopbackStripe;
  smtp: LoopbackSmtp;
  close(): Promise<void>;
}

export async function startStripePlatform(accounts: LoopbackStripeAccount[]): Promise<StripePlatform> {
  const smtp = await startLoopbackSmtp();
  const stripe = await startLoopbackStripe({ accounts });
  const platform = await TestPlatform.start(['identity', 'commerce', 'gateway'], {
    RATE_LIMIT_FACTOR: '1000',
    PUBLIC_URL: 'http://shop.test',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_URL: stripe.url,
    SMTP_URL: smtp.url,
    MAIL_RETRY_DELAY_MS: '100',
  });
  stripe.setWebhookUrl(`${platform.url}/v1/webhooks/stripe`);
  return {
    platform,
    stripe,
    smtp,
    close: async () => {
      await platform.close();
      await stripe.close();
      await smtp.close();
    },
  };
}

/** An order of `buyer`'s (who keeps the address to themself) in `shop`: its id. */
export async function placeOrder(
  platform: TestPlatform,
  shop: Pick<Shop, 'serviceId' | 'productId'> & { seller: { guid: string } },
  buyer: { token: string; email: string },
): Promise<string> {
  const placed = await platform.call(
    'POST',
    `/v1/users/${shop.seller.guid}/services/${shop.serviceId}/order`,
    { product: shop.productId, email: buyer.email, share: false },
    buyer.token,
  );
  expect(placed.status).toBe(201);
  return (placed.body.order as { id: string }).id;
}
