/**
 * Orders through TanStack Query: an order as its buyer (or a visitor) sees it, the same order as its
 * seller handles it, and the mutations on it. An answer that carries the order (cancel, a buyer's
 * message) replaces the cached order; the others (fulfil, refund, a seller's message) load the
 * seller's view again. Every change marks the order lists of billing and selling stale.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { OrderView } from '@tinkerdesk/contracts/web';
import { useRef } from 'react';
import { ApiError } from '../../../shared/api';
import { reload } from '../../../shared/query';
import { useSession } from '../../../shared/session/session';
import {
  cancelOrder,
  completeOrder,
  getFulfillment,
  getOrder,
  markFulfilled,
  newIdempotencyKey,
  payOrder,
  refundOrder,
  replyToOrder,
} from '../api';
import { billingKeys } from './queries';
import { sellingKeys } from './selling';

export const orderKeys = {
  all: ['orders'] as const,
  one: (orderId: string) => [...orderKeys.all, orderId] as const,
  /** `guestTz`: the zone a guest's times are given in (a session's come in the profile's zone). */
  view: (orderId: string, guestTz: string | null) => [...orderKeys.one(orderId), 'view', guestTz] as const,
  fulfillment: (orderId: string) => [...orderKeys.one(orderId), 'fulfillment'] as const,
};

/** An answer that says there is no such thing for this viewer (unknown id, malformed id). */
export const isNotFound = (failure: unknown): boolean => failure instanceof ApiError && (failure.status === 404 || failure.status === 400);

/** The viewer's time zone: the profile's when signed in, the browser's otherwise. */
export function useViewerTimeZone(): string {
  const { profile } = useSession();
  return profile?.tz || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Marks the lists that show orders stale (they load again when next shown). */
function invalidateOrderLists(client: QueryClient): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: sellingKeys.all }),
    client.invalidateQueries({ queryKey: billingKeys.all }),
  ]).then(() => undefined);
}

/** The key of the order as this viewer sees it. */
function useOrderKey(orderId: string) {
  const { token } = useSession();
  const tz = useViewerTimeZone();
  return orderKeys.view(orderId, token ? null : tz);
}

/** The order as the viewer sees it, once the session's start-up check is done. */
export function useOrder(orderId: string) {
  const { ready } = useSession();
  const tz = useViewerTimeZone();
  const queryKey = useOrderKey(orderId);
  const [, , , guestTz] = queryKey;
  const query = useQuery({
    queryKey,
    queryFn: async () => (await getOrder(orderId, guestTz ?? undefined)).order,
    enabled: ready,
  });
  return { ...query, missing: isNotFound(query.error), tz };
}

/** Puts an order the server answered with in place of the cached one. */
function useReplaceOrder(orderId: string) {
  const client = useQueryClient();
  const key = useOrderKey(orderId);
  return async (order: OrderView) => {
    await client.cancelQueries({ queryKey: key });
    client.setQueryData(key, order);
    await invalidateOrderLists(client);
  };
}

/** Opens the payment page of the order (one idempotency key per page, reused by retries). */
export function usePayOrder(orderId: string) {
  const key = useRef(newIdempotencyKey());
  return useMutation({
    mutationFn: () => payOrder(orderId, key.current),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

export function useCancelOrder(orderId: string) {
  const replace = useReplaceOrder(orderId);
  return useMutation({ mutationFn: () => cancelOrder(orderId), onSuccess: ({ order }) => replace(order) });
}

/** A message from the buyer: the answer carries the order with it. */
export function useBuyerReply(orderId: string) {
  const replace = useReplaceOrder(orderId);
  return useMutation({ mutationFn: (note: string) => replyToOrder(orderId, note), onSuccess: ({ order }) => replace(order) });
}

/** Confirms the payment the provider's page sent the browser back from (an idempotency key per page). */
export function useCompleteOrder(orderId: string) {
  const client = useQueryClient();
  const key = useRef(newIdempotencyKey());
  return useMutation({
    mutationFn: (sessionId: string) => completeOrder(orderId, sessionId, key.current),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: orderKeys.one(orderId) }), invalidateOrderLists(client)]),
  });
}

/** An incoming order as its seller handles it (signed in only). */
export function useFulfillment(orderId: string) {
  const { token } = useSession();
  const query = useQuery({
    queryKey: orderKeys.fulfillment(orderId),
    queryFn: async () => {
      const { success: _ok, ...work } = await getFulfillment(orderId);
      return work;
    },
    enabled: Boolean(token),
  });
  return { ...query, missing: isNotFound(query.error) };
}

/** A seller's change to an order: the work, then the seller's view loads again before it counts as done. */
function useSellerAction<T>(orderId: string, work: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: work,
    onSuccess: () => Promise.all([reload(client, orderKeys.one(orderId)), invalidateOrderLists(client)]),
  });
}

export const useMarkFulfilled = (orderId: string) => useSellerAction(orderId, (note: string) => markFulfilled(orderId, note));

/**
 * One refund per Idempotency-Key: a retry after a failure sends the same key (refunded once), and a
 * refund that went through takes a new key for the next one (several partial refunds).
 */
export function useRefundOrder(orderId: string) {
  const key = useRef(newIdempotencyKey());
  return useSellerAction(orderId, async (refund: { amount?: number; reason?: string }) => {
    const answer = await refundOrder(orderId, key.current, refund);
    key.current = newIdempotencyKey();
    return answer;
  });
}

export const useSellerReply = (orderId: string) => useSellerAction(orderId, (note: string) => replyToOrder(orderId, note));
