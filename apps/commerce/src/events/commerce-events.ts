import type { CommerceEventMap, CommerceEventName, OrderSnapshot, PlanSnapshot, SendMailMessage } from '@tinkerdesk/contracts';
import { recordOutboxEvents, type TransactionManager } from '@tinkerdesk/persistence';
import { insertPendingMail } from './pending-mail.repository.js';

/** Commerce's JetStream stream (prefixed per deployment): every commerce event, published by the relay. */
export const COMMERCE_STREAM = 'COMMERCE_EVENTS';

/** Something that happened, typed by its name (CommerceEventMap), about one aggregate. */
export interface CommerceEventRecord<N extends CommerceEventName = CommerceEventName> {
  name: N;
  aggregateType: 'order' | 'request' | 'plan' | 'method';
  aggregateId: string;
  payload: CommerceEventMap[N];
  /**
   * An email that holds a secret (a payment request's link with its key): never in the stream, kept
   * in pending_mail under the event's id in the same transaction; the mail listener sends it.
   */
  secretMail?: SendMailMessage;
}

export function commerceEvent<N extends CommerceEventName>(
  name: N,
  aggregate: { type: CommerceEventRecord['aggregateType']; id: string },
  payload: CommerceEventMap[N],
  secretMail?: SendMailMessage,
): CommerceEventRecord<N> {
  return { name, aggregateType: aggregate.type, aggregateId: aggregate.id, payload, ...(secretMail ? { secretMail } : {}) };
}

/** Writes events to commerce's outbox through the transaction of the change (repositories call it), with their secret emails. */
export async function recordCommerceEvents(manager: TransactionManager, events: CommerceEventRecord[]): Promise<void> {
  if (events.length === 0) return;
  const ids = await recordOutboxEvents(
    manager,
    'commerce',
    events.map(({ name, aggregateType, aggregateId, payload }) => ({ name, aggregateType, aggregateId, payload })),
  );
  for (const [i, event] of events.entries()) if (event.secretMail) await insertPendingMail(manager, ids[i]!, event.secretMail);
}

/** The plan as its events carry it. */
export function planSnapshot(plan: {
  id: string;
  payerId: string;
  sellerId: string;
  product: { name: string; price: number };
  timeZone: string;
}): PlanSnapshot {
  return {
    id: plan.id,
    payerId: plan.payerId,
    sellerId: plan.sellerId,
    productName: plan.product.name,
    price: plan.product.price,
    timeZone: plan.timeZone,
  };
}

/** The order as its events carry it. */
export function orderSnapshot(order: OrderSnapshot): OrderSnapshot {
  return {
    id: order.id,
    sellerId: order.sellerId,
    buyerId: order.buyerId,
    claimedBy: order.claimedBy ?? null,
    email: order.email,
    share: order.share,
    note: order.note,
    items: order.items,
    amount: order.amount,
    fulfilNote: order.fulfilNote,
  };
}
