/**
 * A payment request through TanStack Query (/requests/{id}?key=…): the request as its payer or seller
 * sees it, and the answers to it. An answer that carries the request (decline, withdraw) replaces the
 * cached one; every answer marks the billing lists (requests, timeline) stale.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiSchemas } from '../../../shared/api';
import type { PaymentRequestView } from '@tinkerdesk/contracts/web';
import { useRef } from 'react';
import { useSession } from '../../../shared/session/session';
import { acceptRequest, cancelRequest, declineRequest, getRequest, newIdempotencyKey, payOrder } from '../api';
import { isNotFound } from './orders';
import { billingKeys } from './queries';

export const requestKeys = {
  all: ['requests'] as const,
  /** `key`: the payer's key from the emailed link (a request may be opened without a session). */
  one: (requestId: string, key: string | undefined) => [...requestKeys.all, requestId, key ?? null] as const,
};

/** Where this tab keeps a request's key while its payer is on the provider's pay page (sessionStorage). */
const KEY_STORAGE = 'tinkerdesk.request-key.';

/**
 * The key of the emailed link of a request this tab accepted, for the way back from the pay page
 * (/orders/{id}/return?request=…): the server keeps only the key's hash, so the return address it
 * builds cannot carry it, and a payer who is not signed in needs it to see the request.
 */
export function rememberedRequestKey(requestId: string): string | undefined {
  try {
    return sessionStorage.getItem(KEY_STORAGE + requestId) ?? undefined;
  } catch {
    return undefined;
  }
}

function rememberRequestKey(requestId: string, key: string | undefined): void {
  if (!key) return;
  try {
    sessionStorage.setItem(KEY_STORAGE + requestId, key);
  } catch {
    // Storage refused (private mode): a payer who is not signed in opens the emailed link again.
  }
}

/** The request, once the session's start-up check is done (the viewer's role depends on it). */
export function useRequest(requestId: string, key: string | undefined) {
  const { ready } = useSession();
  const query = useQuery({
    queryKey: requestKeys.one(requestId, key),
    queryFn: async () => (await getRequest(requestId, key)).request,
    enabled: ready,
  });
  return { ...query, missing: isNotFound(query.error) };
}

/** A change whose answer is the request: it replaces the cached one. */
function useRequestChange<V = void>(
  requestId: string,
  key: string | undefined,
  work: (value: V) => Promise<{ request: PaymentRequestView }>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: work,
    onSuccess: async ({ request }) => {
      const queryKey = requestKeys.one(requestId, key);
      await client.cancelQueries({ queryKey });
      client.setQueryData(queryKey, request);
      await client.invalidateQueries({ queryKey: billingKeys.all });
    },
  });
}

/** The payer declines; the reason (optional, may be empty) is shown to the seller. */
export const useDeclineRequest = (requestId: string, key: string | undefined) =>
  useRequestChange(requestId, key, (reason: string) => declineRequest(requestId, key, reason.trim() || undefined));

/** The seller withdraws it (`key`: the page's, for the cached request only). */
export const useWithdrawRequest = (requestId: string, key: string | undefined) =>
  useRequestChange(requestId, key, () => cancelRequest(requestId));

/** Accepts the request (an order is made), then opens that order's payment page. */
export function useAcceptAndPay(requestId: string, key: string | undefined) {
  const client = useQueryClient();
  const payKey = useRef(newIdempotencyKey());
  return useMutation({
    mutationFn: async (answer: ApiSchemas['AcceptRequestDto']) => {
      const { order } = await acceptRequest(requestId, answer, key);
      return payOrder(order.id, payKey.current);
    },
    onSuccess: ({ url }) => {
      void client.invalidateQueries({ queryKey: billingKeys.all });
      rememberRequestKey(requestId, key);
      window.location.assign(url);
    },
  });
}
