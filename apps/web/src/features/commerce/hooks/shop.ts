/**
 * A seller's public page through TanStack Query: the storefront (one key per service, shared by the
 * shop and the plan form) and ordering from it, which goes straight on to the payment page.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StorefrontView } from '@tinkerdesk/contracts/web';
import { useRef } from 'react';
import type { ApiSchemas } from '../../../shared/api';
import { getStorefront, newIdempotencyKey, payOrder, placeOrder } from '../api';
import { sellingKeys } from './selling';

export const shopKeys = {
  all: ['shop'] as const,
  storefront: (guid: string, serviceId: string) => [...shopKeys.all, guid, serviceId] as const,
};

async function loadShop(guid: string, serviceId: string): Promise<StorefrontView> {
  const { success: _ok, ...shop } = await getStorefront(guid, serviceId);
  return shop;
}

export const useStorefront = (guid: string, serviceId: string) =>
  useQuery({ queryKey: shopKeys.storefront(guid, serviceId), queryFn: () => loadShop(guid, serviceId) });

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
