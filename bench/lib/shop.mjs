/**
 * The storefront benchmarks' seller: signs up, opens a sandbox shop ("Riso Corner") and adds `products`
 * posters through the API of a started TestPlatform. Answers the seller, the service's id and the first
 * product's id.
 */
export async function openBenchShop(platform, { tag, products }) {
  const signedUp = (await platform.call('POST', '/v1/users', { email: `${tag}-${Date.now()}@example.com`, password: `${tag} benchmark` }))
    .body;
  const seller = { token: signedUp.token, guid: signedUp.profile.guid };
  const service = await platform.call(
    'POST',
    `/v1/users/${seller.guid}/services`,
    { name: 'Print shop', displayName: 'Riso Corner', provider: 'sandbox', vendor: 'digital', account: 'sandbox_bench' },
    seller.token,
  );
  if (service.status !== 201) throw new Error(`service not created: ${JSON.stringify(service.body)}`);
  const serviceId = service.body.service.id;
  let productId;
  for (let i = 0; i < products; i++) {
    const product = await platform.call(
      'POST',
      `/v1/users/${seller.guid}/services/${serviceId}/products`,
      { name: `Poster ${i + 1}`, description: 'A3 risograph print, two colours, on recycled paper.', price: 1250 + i * 100 },
      seller.token,
    );
    if (product.status !== 201) throw new Error(`product not created: ${JSON.stringify(product.body)}`);
    productId ??= product.body.product.id;
  }
  return { seller, serviceId, productId };
}
