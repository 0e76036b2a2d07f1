import { AppError, PAYABLE_ORDER_STATES, type OrderState } from '@tinkerdesk/contracts';

/**
 * The one table of legal order transitions (docs/api.md "Order states" documents these):
 *
 *   pending ──paid──► paid ──fulfil──► fulfilled
 *      │  ▲            │                  │
 *   failed│            └──refund──► refunded ◄┘
 *      │  └─(pay again: a later try pays)
 *      └──cancel──► cancelled   (from pending or failed)
 *
 * failed → paid: after a declined card the buyer tries again and pays. Everything else is refused.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderState, readonly OrderState[]>> = {
  pending: ['paid', 'failed', 'cancelled'],
  failed: ['paid', 'cancelled'],
  paid: ['fulfilled', 'refunded'],
  fulfilled: ['refunded'],
  cancelled: [],
  refunded: [],
};

/** States in which an order may be paid (a pay page opened, a payment applied). */
export const PAYABLE_STATES = PAYABLE_ORDER_STATES;

export function canTransition(from: OrderState, to: OrderState): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

const REFUSALS: Partial<Record<OrderState, string>> = {
  paid: 'it is paid already',
  fulfilled: 'it is fulfilled already',
  cancelled: 'it was cancelled',
  refunded: 'it was refunded',
  pending: 'it is not paid yet',
  failed: 'its payment failed',
};

/** CONFLICT unless `from` → `to` is legal; `what` names the action for the message. */
export function assertTransition(from: OrderState, to: OrderState, what: string): void {
  if (!canTransition(from, to)) throw new AppError('CONFLICT', `this order cannot be ${what}: ${REFUSALS[from] ?? `it is ${from}`}`);
}
