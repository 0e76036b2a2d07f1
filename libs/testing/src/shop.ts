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
