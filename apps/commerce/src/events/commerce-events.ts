import type { CommerceEventMap, CommerceEventName, OrderSnapshot } from '@tinkerdesk/contracts';
import { recordOutboxEvents, type TransactionManager } from '@tinkerdesk/persistence';

/** Commerce's JetStream stream (prefixed per deployment): every commerce event, published by the relay. */
export const COMMERCE_STREAM = 'COMMERCE_EVENTS';

/** Something that happened, typed by its name (CommerceEventMap), about one aggregate. */
export interface CommerceEventRecord<N extends CommerceEventName = CommerceEventName> {
  name: N;
  aggregateType: 'order' | 'request' | 'plan';
  aggregateId: string;
  payload: CommerceEventMap[N];
}

export function commerceEvent<N extends CommerceEventName>(
  name: N,
  aggregate: { type: CommerceEventRecord['aggregateType']; id: string },
  payload: CommerceEventMap[N],
): CommerceEventRecord<N> {
  return { name, aggregateType: aggregate.type, aggregateId: aggregate.id, payload };
}

/** Writes events to commerce's outbox through the transaction of the change (repositories call it). */
export async function recordCommerceEvents(manager: TransactionManager, events: CommerceEventRecord[]): Promise<void> {
  if (events.length > 0) await recordOutboxEvents(manager, 'commerce', events);
}

/** The order as its events carry it. */
export function orderSnapshot(order: OrderSnapshot): OrderSnapshot {
  return {
    id: order.id,
    sellerId: order.sellerId,
    buyerId: order.buyerId,
    email: order.email,
    share: order.share,
    note: order.note,
    items: order.items,
    amount: order.amount,
    fulfilNote: order.fulfilNote,
  };
}
