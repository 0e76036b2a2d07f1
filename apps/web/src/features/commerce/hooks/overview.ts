/**
 * The seller's overview through TanStack Query. Both queries refetch every 30 seconds while shown, so
 * new orders appear without a reload (issue 30 brings a live stream). "New" means paid after the seen
 * marker as it was when this visit began: the first answer's marker is kept for the visit, and the
 * marker is then moved to now (POST /v1/fulfillment/seen), so the next visit starts from here.
 */
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { SellerOrderSummary } from '@tinkerdesk/contracts/web';
import { useEffect, useState } from 'react';
import { getSellerOrders, getSellerOverview, markOverviewSeen, type SellerOrderFilters } from '../overview-api';
import { sellingKeys } from './selling';

/** How often the overview asks again while it is on screen. */
export const OVERVIEW_REFRESH_MS = 30_000;

/** Before the first look every paid order is new. */
const NEVER = '1970-01-01T00:00:00.000Z';

export const overviewKeys = {
  all: [...sellingKeys.all, 'overview'] as const,
  summary: (since: string | null) => [...overviewKeys.all, 'summary', since ?? 'marker'] as const,
  orders: (offset: number, filters: SellerOrderFilters) => [...overviewKeys.all, 'orders', offset, filters] as const,
};

/**
 * The overview, and whether an order is new on this visit. `since` is null until the first answer
 * (then the server counts from its own marker); from then on it is that answer's marker.
 */
export function useSellerOverview() {
  const [since, setSince] = useState<string | null>(null);
  const seen = useMutation({ mutationFn: markOverviewSeen });
  const query = useQuery({
    queryKey: overviewKeys.summary(since),
    queryFn: () => getSellerOverview(since ?? undefined),
    refetchInterval: OVERVIEW_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  // The first answer's marker becomes this visit's (set while rendering, as React advises for derived state).
  if (query.data && since === null) setSince(query.data.seenAt ?? NEVER);
  const started = since !== null;
  const { mutate: markSeen } = seen;
  useEffect(() => {
    if (started) markSeen();
  }, [started, markSeen]);
  const isNew = (order: Pick<SellerOrderSummary, 'paidAt'>): boolean =>
    order.paidAt !== null && Date.parse(order.paidAt) > Date.parse(since ?? query.data?.seenAt ?? NEVER);
  return { ...query, isNew };
}

export const useSellerOrders = (offset: number, limit: number, filters: SellerOrderFilters) =>
  useQuery({
    queryKey: overviewKeys.orders(offset, filters),
    queryFn: () => getSellerOrders(offset, limit, filters),
    refetchInterval: OVERVIEW_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
