import type { TestPlatform } from './platform.js';
import { uniqueEmail } from './platform.js';

export interface TestAccount {
  token: string;
  guid: string;
  email: string;
}

/** A new account through the gateway (a unique address under `tag`); throws if sign-up is refused. */
export async function newAccount(platform: TestPlatform, tag: string, password = `${tag} test password`): Promise<TestAccount> {
  const email = uniqueEmail(tag);
  const created = await platform.call('POST', '/v1/users', { email, password });
  if (created.status !== 201) throw new Error(`could not sign up: ${JSON.stringify(created.body)}`);
  return { token: created.body.token as string, guid: (created.body.profile as { guid: string }).guid, email };
}

export interface ShopOptions {
  /** Names the seller's address (uniqueEmail). */
  tag: string;
  service: { name: string; displayName: string; provider: 'sandbox' | 'stripe'; vendor: string; account: string } & Record<string, unknown>;
  product: { name: string; price: number } & Record<string, unknown>;
}

export interface Shop {
  seller: { token: string; guid: string; email: string };
  serviceId: string;
  productId: string;
}

/** A new seller with one service and one product, made through the gateway as /account makes them; throws if any step is refused. */
export async function openShop(platform: TestPlatform, options: ShopOptions): Promise<Shop> {
  const email = uniqueEmail(options.tag);
  const created = await platform.call('POST', '/v1/users', { email, password: `${options.tag} seller password` });
  const seller = { token: created.body.token as string, guid: (created.body.profile as { guid: string } | undefined)?.guid ?? '', email };
  const service = await platform.call('POST', `/v1/users/${seller.guid}/services`, options.service, seller.token);
  const serviceId = (service.body.service as { id: string } | undefined)?.id;
  const product = serviceId
    ? await platform.call('POST', `/v1/users/${seller.guid}/services/${serviceId}/products`, options.product, seller.token)
    : undefined;
  const productId = (product?.body.product as { id: string } | undefined)?.id;
  if (created.status !== 201 || !serviceId || !productId) {
    throw new Error(`could not open a shop: ${JSON.stringify([created.body, service.body, product?.body])}`);
  }
  return { seller, serviceId, productId };
}

/**
 * A card saved as a browser saves one on the sandbox's card page (setup, pay with `number`, complete);
 * throws if a step is refused. The payment instrument (its id is what a plan's `paymentMethod` takes).
 */
export async function saveSandboxCard(
  platform: TestPlatform,
  token: string,
  number = '4242 4242 4242 4242',
): Promise<{ id: string; last4: string }> {
  const setup = await platform.call('POST', '/v1/paymentmethods', {}, token);
  const id = (setup.body.setup as { id: string } | undefined)?.id;
  const paid = id ? await platform.call('POST', `/v1/sandbox/sessions/${id}/pay`, { number, expiry: '12 / 34', cvc: '123' }) : undefined;
  if ((paid?.body.session as { status?: string } | undefined)?.status === 'requires_action') {
    await platform.call('POST', `/v1/sandbox/sessions/${id}/authenticate`, { approve: true });
  }
  const kept = id ? await platform.call('POST', `/v1/paymentmethods/setup/${id}/complete`, undefined, token) : undefined;
  if (kept?.status !== 200) throw new Error(`could not save a card: ${JSON.stringify([setup.body, paid?.body, kept?.body])}`);
  return kept.body.instrument as { id: string; last4: string };
}
