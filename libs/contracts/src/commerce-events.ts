import type { OrderItem, PlanInterval } from './commerce-views.js';

/**
 * Commerce's domain events: what happened, recorded in the outbox in the same transaction as the
 * change and published after commit to NATS JetStream (at least once, in order per aggregate).
 * Listeners (timeline, mail) react to them idempotently, keyed by the event's id. Names are past
 * tense, `<service>.<aggregate>.<what happened>`; one typed map from name to payload, like RpcMap.
 */
export const COMMERCE_EVENTS = {
  orderPlaced: 'commerce.order.placed',
  orderPaid: 'commerce.order.paid',
  orderRefunded: 'commerce.order.refunded',
  orderLatePaymentRefunded: 'commerce.order.late_payment.refunded',
  orderReplyAdded: 'commerce.order.reply.added',
  orderFulfilled: 'commerce.order.fulfilled',
  orderCancelled: 'commerce.order.cancelled',
  requestSent: 'commerce.request.sent',
  requestAccepted: 'commerce.request.accepted',
  requestDeclined: 'commerce.request.declined',
  planCreated: 'commerce.plan.created',
  planCancelled: 'commerce.plan.cancelled',
  planCharged: 'commerce.plan.charged',
  planChargeFailed: 'commerce.plan.charge_failed',
  methodAdded: 'commerce.method.added',
  methodDefaultChanged: 'commerce.method.default_changed',
  methodRemoved: 'commerce.method.removed',
} as const;

export type CommerceEventName = (typeof COMMERCE_EVENTS)[keyof typeof COMMERCE_EVENTS];

/** An order as its events carry it: what the listeners need to tell its buyer and seller. */
export interface OrderSnapshot {
  id: string;
  sellerId: string;
  /** Null for an order placed signed out (mail goes to `email`). */
  buyerId: string | null;
  /**
   * An order placed signed out: the account that verified its `email` (the order is theirs as its
   * buyer; see `buyerAccountOf`). Absent in events recorded before guest orders could be claimed.
   */
  claimedBy?: string | null;
  email: string;
  /** The buyer agreed to share their address with the seller. */
  share: boolean;
  note: string;
  items: OrderItem[];
  amount: number;
  fulfilNote: string | null;
}

export interface PlanSnapshot {
  id: string;
  payerId: string;
  sellerId: string;
  productName: string;
  price: number;
  timeZone: string;
}

/** A payment request as its events carry it (never its key: the emailed link's secret stays out of the stream). */
export interface RequestSnapshot {
  id: string;
  sellerId: string;
  email: string;
  productName: string;
  price: number;
}

/** A saved card as its events carry it: whose, and how it is named (never its provider reference). */
export interface MethodSnapshot {
  id: string;
  userId: string;
  brand: string;
  last4: string;
}

export interface CommerceEventMap {
  [COMMERCE_EVENTS.orderPlaced]: { order: OrderSnapshot };
  [COMMERCE_EVENTS.orderPaid]: {
    order: OrderSnapshot;
    receipt: { number: string; sellerName: string; supportEmail: string | null; paidAt: string; items: OrderItem[]; amount: number };
  };
  /** One refund (partial or the rest); `refundedAmount` is the order's total refunded after it, `fully` when all of it. */
  [COMMERCE_EVENTS.orderRefunded]: {
    order: OrderSnapshot;
    refund: { id: string; amount: number; reason: string | null };
    refundedAmount: number;
    fully: boolean;
    /** The order's receipt number (null for an order without one). */
    receipt: string | null;
  };
  [COMMERCE_EVENTS.orderLatePaymentRefunded]: {
    order: OrderSnapshot;
    paymentId: string;
    amount: number;
    /** The order's state when the refund went through: why the payment was not owed. */
    orderState: 'cancelled' | 'paid' | 'fulfilled' | 'refunded' | 'pending' | 'failed';
  };
  [COMMERCE_EVENTS.orderReplyAdded]: {
    order: OrderSnapshot;
    reply: { id: string; authorId: string; role: 'buyer' | 'seller'; note: string };
    /** The service's support address (the buyer's email replies there); absent on events recorded before it was carried. */
    supportEmail?: string | null;
  };
  [COMMERCE_EVENTS.orderFulfilled]: { order: OrderSnapshot };
  [COMMERCE_EVENTS.orderCancelled]: { order: OrderSnapshot };
  /**
   * The request was made. Its email holds the payer's secret link: it is not in the payload but in
   * commerce's pending_mail table, written in the same transaction under this event's id.
   */
  [COMMERCE_EVENTS.requestSent]: {
    request: RequestSnapshot;
    /** The account the request is addressed to (its verified address), else null. */
    payerId: string | null;
    /** How the seller is named to the payer: their public name, else the service's name. */
    from: string;
  };
  [COMMERCE_EVENTS.requestAccepted]: {
    request: RequestSnapshot;
    orderId: string;
    /** The signed-in payer who accepted, else the account the request was addressed to (or null). */
    payerId: string | null;
  };
  [COMMERCE_EVENTS.requestDeclined]: {
    request: RequestSnapshot;
    /** The signed-in payer who declined, else the account the request was addressed to (or null). */
    payerId: string | null;
    /** Why, in the payer's words (plain text), or null; absent on older events. */
    reason?: string | null;
  };
  [COMMERCE_EVENTS.planCreated]: { plan: PlanSnapshot; interval: PlanInterval };
  [COMMERCE_EVENTS.planCancelled]: { plan: PlanSnapshot; by: 'payer' | 'seller' };
  [COMMERCE_EVENTS.planCharged]: { plan: PlanSnapshot; paymentId: string; next: string | null };
  [COMMERCE_EVENTS.planChargeFailed]: { plan: PlanSnapshot; reason: string; next: string | null; tries: number };
  [COMMERCE_EVENTS.methodAdded]: { method: MethodSnapshot };
  [COMMERCE_EVENTS.methodDefaultChanged]: { method: MethodSnapshot };
  /** `movedPlans`: how many live plans the card paid for, moved to the replacement card with the removal. */
  [COMMERCE_EVENTS.methodRemoved]: { method: MethodSnapshot; movedPlans: number };
}

/** Fails to compile when a name of COMMERCE_EVENTS has no payload in the map (or the map one name too many). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const COMMERCE_EVENT_MAP_COVERS_NAMES: Same<CommerceEventName, keyof CommerceEventMap> = true;

/** One published event of one name, as listeners receive it. */
export interface CommerceEventEnvelope<N extends CommerceEventName> {
  id: string;
  name: N;
  aggregateType: string;
  aggregateId: string;
  payload: CommerceEventMap[N];
  createdAt: string;
}

/** Any commerce event: a union by name, so a switch on `name` narrows the payload. */
export type CommerceDomainEvent = { [N in CommerceEventName]: CommerceEventEnvelope<N> }[CommerceEventName];

/** The account that is an order's buyer: who placed it signed in, else the account that verified its email; null for a guest's. */
export const buyerAccountOf = (order: Pick<OrderSnapshot, 'buyerId' | 'claimedBy'>): string | null =>
  order.buyerId ?? order.claimedBy ?? null;
