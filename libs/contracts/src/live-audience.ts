import { COMMERCE_EVENTS, buyerAccountOf, type CommerceDomainEvent } from './commerce-events.js';
import { LIVE_EVENTS, audienceOf, type LiveEventFor } from './live-events.js';
import { TERMINALS_EVENTS, type TerminalsDomainEvent } from './terminals-events.js';

/**
 * Which live event a commerce domain event makes, and for whom (its audience: the accounts the
 * change concerns, read from the event's payload). Null for events no page shows live.
 */
export function liveOfCommerce(event: CommerceDomainEvent): LiveEventFor | null {
  switch (event.name) {
    case COMMERCE_EVENTS.orderPlaced:
    case COMMERCE_EVENTS.orderPaid:
    case COMMERCE_EVENTS.orderRefunded:
    case COMMERCE_EVENTS.orderLatePaymentRefunded:
    case COMMERCE_EVENTS.orderFulfilled:
    case COMMERCE_EVENTS.orderCancelled: {
      const { order } = event.payload;
      const type =
        event.name === COMMERCE_EVENTS.orderPaid
          ? LIVE_EVENTS.orderPaid
          : event.name === COMMERCE_EVENTS.orderPlaced
            ? LIVE_EVENTS.orderPlaced
            : LIVE_EVENTS.orderChanged;
      return { type, ids: { orderId: order.id }, audience: audienceOf(order.sellerId, buyerAccountOf(order)) };
    }
    case COMMERCE_EVENTS.orderReplyAdded: {
      const { order, reply } = event.payload;
      return {
        type: LIVE_EVENTS.orderReplied,
        ids: { orderId: order.id, replyId: reply.id },
        audience: audienceOf(order.sellerId, buyerAccountOf(order)),
      };
    }
    case COMMERCE_EVENTS.requestSent:
      return {
        type: LIVE_EVENTS.requestReceived,
        ids: { requestId: event.payload.request.id },
        audience: audienceOf(event.payload.request.sellerId, event.payload.payerId),
      };
    case COMMERCE_EVENTS.requestAccepted:
      return {
        type: LIVE_EVENTS.requestAccepted,
        ids: { requestId: event.payload.request.id, orderId: event.payload.orderId },
        audience: audienceOf(event.payload.request.sellerId, event.payload.payerId),
      };
    case COMMERCE_EVENTS.requestDeclined:
      return {
        type: LIVE_EVENTS.requestDeclined,
        ids: { requestId: event.payload.request.id },
        audience: audienceOf(event.payload.request.sellerId, event.payload.payerId),
      };
    case COMMERCE_EVENTS.planCharged:
      return {
        type: LIVE_EVENTS.planCharged,
        ids: { planId: event.payload.plan.id, paymentId: event.payload.paymentId },
        audience: audienceOf(event.payload.plan.payerId, event.payload.plan.sellerId),
      };
    case COMMERCE_EVENTS.planCreated:
    case COMMERCE_EVENTS.planCancelled:
    case COMMERCE_EVENTS.planChargeFailed:
      return {
        type: LIVE_EVENTS.planChanged,
        ids: { planId: event.payload.plan.id },
        audience: audienceOf(event.payload.plan.payerId, event.payload.plan.sellerId),
      };
    case COMMERCE_EVENTS.methodAdded:
    case COMMERCE_EVENTS.methodDefaultChanged:
    case COMMERCE_EVENTS.methodRemoved:
      return {
        type: LIVE_EVENTS.cardsChanged,
        ids: { cardId: event.payload.method.id },
        audience: audienceOf(event.payload.method.userId),
      };
  }
}

/** Which live event a terminals domain event makes: a share arriving, a terminal registered or removed, for the owner of its terminals. */
export function liveOfTerminals(event: TerminalsDomainEvent): LiveEventFor | null {
  switch (event.name) {
    case TERMINALS_EVENTS.shareCreated: {
      const { share } = event.payload;
      return {
        type: LIVE_EVENTS.shareReceived,
        ids: { shareId: share.id, terminalId: share.terminalId, ...(share.fromTerminalId ? { fromTerminalId: share.fromTerminalId } : {}) },
        audience: audienceOf(share.userId),
      };
    }
    case TERMINALS_EVENTS.terminalRegistered:
    case TERMINALS_EVENTS.terminalRemoved: {
      const { terminal } = event.payload;
      const type = event.name === TERMINALS_EVENTS.terminalRegistered ? LIVE_EVENTS.terminalRegistered : LIVE_EVENTS.terminalRemoved;
      return { type, ids: { terminalId: terminal.id }, audience: audienceOf(terminal.userId) };
    }
  }
}
