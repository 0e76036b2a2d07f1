/**
 * What each live event makes the open pages read again (docs/web-app.md "Live updates"): the query
 * keys it affects are invalidated, so a page showing them refetches and updates itself. The keys are
 * the prefixes of the features' key factories (terminalKeys.all, orderKeys.all, sellingKeys.all,
 * billingKeys.all, requestKeys.all), written out here so the app shell's chunk does not load the
 * features' modules; live-updates.spec.ts checks they match.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { LIVE_EVENTS, type LiveEvent } from '@tinkerdesk/contracts/web';

export const LIVE_KEYS = {
  terminals: ['terminals'],
  orders: ['orders'],
  selling: ['selling'],
  billing: ['billing'],
  requests: ['requests'],
} as const;

/** The query keys an event affects. */
export function keysOf(event: LiveEvent): QueryKey[] {
  switch (event.type) {
    case LIVE_EVENTS.shareReceived:
    case LIVE_EVENTS.terminalRegistered:
      return [LIVE_KEYS.terminals];
    case LIVE_EVENTS.terminalRemoved:
      // The list only: an inbox open on the removed terminal would be read again (a 404) before the list
      // that no longer has it closes the inbox.
      return [[...LIVE_KEYS.terminals, 'overview']];
    case LIVE_EVENTS.orderPlaced:
    case LIVE_EVENTS.orderPaid:
    case LIVE_EVENTS.orderChanged:
    case LIVE_EVENTS.orderReplied:
      return [
        typeof event.ids.orderId === 'string' ? [...LIVE_KEYS.orders, event.ids.orderId] : LIVE_KEYS.orders,
        LIVE_KEYS.selling,
        LIVE_KEYS.billing,
      ];
    case LIVE_EVENTS.requestReceived:
    case LIVE_EVENTS.requestAccepted:
    case LIVE_EVENTS.requestDeclined:
      return [LIVE_KEYS.requests, LIVE_KEYS.billing, LIVE_KEYS.selling];
    case LIVE_EVENTS.planCharged:
    case LIVE_EVENTS.planChanged:
    case LIVE_EVENTS.cardsChanged:
      return [LIVE_KEYS.billing];
    case LIVE_EVENTS.conversionProgress:
      // The converter follows its jobs on the live bus (tools/file-converter/use-conversions.ts).
      return [];
    default:
      return [];
  }
}

export function invalidateFor(client: QueryClient, event: LiveEvent): void {
  for (const queryKey of keysOf(event)) void client.invalidateQueries({ queryKey });
}
