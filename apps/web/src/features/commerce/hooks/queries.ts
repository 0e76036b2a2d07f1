/**
 * Server data of the billing side of commerce through TanStack Query: one key per list, and the
 * mutations invalidate what they change (a card made default changes the cards, the plans they pay
 * and the timeline). The token travels in the client's middleware, so no key holds it; the app
 * resets every query when the session changes.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  completeCardSetup,
  deleteCard,
  getTimeline,
  listInstruments,
  listPlans,
  listRequests,
  makeDefaultCard,
  myOrders,
  startCardSetup,
} from '../api';
import { reload } from '../../../shared/query';

export const billingKeys = {
  all: ['billing'] as const,
  instruments: () => [...billingKeys.all, 'instruments'] as const,
  plans: () => [...billingKeys.all, 'plans'] as const,
  requests: (box: 'sent' | 'received', offset: number) => [...billingKeys.all, 'requests', box, offset] as const,
  receipts: (offset: number) => [...billingKeys.all, 'receipts', offset] as const,
  timeline: (offset: number) => [...billingKeys.all, 'timeline', offset] as const,
};

/**
 * When the timeline is read again after a change: its entries are written by a listener just after
 * the change commits (docs/architecture.md, the outbox), so the first reload can come before them.
 */
export const TIMELINE_FOLLOW_UP_MS = [600, 1500, 4000] as const;

/** Reloads every billing list (after a card or plan changed), and the shown timeline a moment later too. */
export function useInvalidateBilling(): () => Promise<void> {
  const client = useQueryClient();
  return async () => {
    for (const ms of TIMELINE_FOLLOW_UP_MS) {
      setTimeout(() => void client.invalidateQueries({ queryKey: [...billingKeys.all, 'timeline'] }), ms);
    }
    await reload(client, billingKeys.all);
  };
}

export const useInstruments = () => useQuery({ queryKey: billingKeys.instruments(), queryFn: listInstruments });

export const usePlans = () => useQuery({ queryKey: billingKeys.plans(), queryFn: listPlans });

/** A page of a list: the previous page stays on screen while the next one loads. */
const paged = { placeholderData: keepPreviousData } as const;

export const useRequests = (box: 'sent' | 'received', offset: number, limit: number) =>
  useQuery({ queryKey: billingKeys.requests(box, offset), queryFn: () => listRequests(box, offset, limit), ...paged });

export const useReceipts = (offset: number, limit: number) =>
  useQuery({ queryKey: billingKeys.receipts(offset), queryFn: () => myOrders(offset, limit, true), ...paged });

export const useTimeline = (offset: number, limit: number) =>
  useQuery({ queryKey: billingKeys.timeline(offset), queryFn: () => getTimeline(offset, limit), ...paged });

/** Opens the provider's card page: resolves with the setup whose url the browser goes to. */
export const useStartCardSetup = () => useMutation({ mutationFn: (provider?: 'stripe' | 'sandbox') => startCardSetup(provider) });

export function useCompleteCardSetup() {
  const invalidate = useInvalidateBilling();
  return useMutation({ mutationFn: (sessionId: string) => completeCardSetup(sessionId), onSuccess: invalidate });
}

export function useMakeDefaultCard() {
  const invalidate = useInvalidateBilling();
  return useMutation({ mutationFn: (methodId: string) => makeDefaultCard(methodId), onSuccess: invalidate });
}

export function useDeleteCard() {
  const invalidate = useInvalidateBilling();
  return useMutation({
    mutationFn: ({ id, replacement }: { id: string; replacement?: string }) => deleteCard(id, replacement),
    onSuccess: invalidate,
  });
}
