/**
 * A seller's public page through TanStack Query: the storefront (one key per service, shared by the
 * shop and the plan form) and ordering from it, which goes straight on to the payment page.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StorefrontView } from '@tinkerdesk/contracts/web';
import { useRef } from 'react';
import type { ApiSchemas } from '../../../shared/api';
import { inlineShop } from '../../../shared/early-shop';
import { getShop, getStorefront, newIdempotencyKey, payOrder, placeOrder } from '../api';
import { sellingKeys } from './selling';

export const shopKeys = {
  all: ['shop'] as const,
  storefront: (guid: string, serviceId: string) => [...shopKeys.all, guid, serviceId] as const,
  bySlug: (slug: string) => [...shopKeys.all, 'slug', slug] as const,
};

async function loadShop(guid: string, serviceId: string): Promise<StorefrontView> {
  const { success: _ok, ...shop } = await getStorefront(guid, serviceId);
  return shop;
}

/**
 * How long a shop's answer is used before it is read again (on the page's mount or focus): the page
 * opens with the answer the gateway sent with it (shared/early-shop.ts, inlineShop) instead of
 * reading the shop a second time.
 */
const SHOP_FRESH_MS = 30_000;

/**
 * The shop's query options for its read, starting from the page's inline answer when it has one; and
 * whether that answer says there is no such shop (shown until the query has its own answer).
 */
function fromPage(read: string) {
  const answer = inlineShop<StorefrontView>(read);
  const shop = answer && 'shop' in answer ? answer : undefined;
  return {
    options: shop ? { initialData: shop.shop, initialDataUpdatedAt: shop.at, staleTime: SHOP_FRESH_MS } : {},
    notFound: answer !== undefined && 'notFound' in answer,
  };
}

export function useStorefront(guid: string, serviceId: string) {
  const page = fromPage(`/v1/users/${encodeURIComponent(guid)}/services/${encodeURIComponent(serviceId)}`);
  const query = useQuery({ queryKey: shopKeys.storefront(guid, serviceId), queryFn: () => loadShop(guid, serviceId), ...page.options });
  return { ...query, inlineNotFound: page.notFound && query.isPending };
}

async function loadShopBySlug(slug: string): Promise<StorefrontView> {
  const { success: _ok, ...shop } = await getShop(slug);
  return shop;
}

/** The same page by the short link its seller chose (/s/{slug}). */
export function useShopBySlug(slug: string) {
  const page = fromPage(`/v1/shops/${encodeURIComponent(slug)}`);
  const query = useQuery({ queryKey: shopKeys.bySlug(slug), queryFn: () => loadShopBySlug(slug), ...page.options });
  return { ...query, inlineNotFound: page.notFound && query.isPending };
}

/**
 * Places an order and opens its payment page: `step` says which of the two is under way ('paying'
 * stays until the browser has left for the payment page). One idempotency key per form.
 */
export function useOrderAndPay(guid: string, serviceId: string) {
  const client = useQueryClient();
  const key = useRef(newIdempotencyKey());
  const place = useMutation({
    mutationFn: (body: ApiSchemas['OrderDto']) => placeOrder(guid, serviceId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: sellingKeys.all }),
  });
  const pay = useMutation({
    mutationFn: (orderId: string) => payOrder(orderId, key.current),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const submit = (body: ApiSchemas['OrderDto']) => {
    pay.reset();
    place.mutate(body, { onSuccess: ({ order }) => pay.mutate(order.id) });
  };
  const step = place.isPending ? 'ordering' : pay.isPending || pay.isSuccess ? 'paying' : 'idle';
  return { submit, step, error: place.error ?? pay.error } as const;
}
