import { AppError, type RequestState } from '@tinkerdesk/contracts';

/**
 * The one table of payment request transitions (docs/api.md "Request states"):
 * open → accepted (the payer turned it into an order) | declined (by the payer) | cancelled (by the
 * seller) | expired (not answered in time); accepted → paid (its order was paid) | cancelled (its
 * order was cancelled). declined, cancelled, expired and paid are final.
 */
export const REQUEST_TRANSITIONS: Readonly<Record<RequestState, readonly RequestState[]>> = {
  open: ['accepted', 'declined', 'cancelled', 'expired'],
  accepted: ['paid', 'cancelled'],
  paid: [],
  declined: [],
  cancelled: [],
  expired: [],
};

export function canMove(from: RequestState, to: RequestState): boolean {
  return REQUEST_TRANSITIONS[from].includes(to);
}

const WHY: Record<RequestState, string> = {
  open: 'it is still open',
  accepted: 'it was accepted already',
  paid: 'it is paid',
  declined: 'it was declined',
  cancelled: 'it was cancelled',
  expired: 'it has expired',
};

/** CONFLICT unless `from` → `to` is legal. */
export function assertMove(from: RequestState, to: RequestState, what: string): void {
  if (!canMove(from, to)) throw new AppError('CONFLICT', `this request cannot be ${what}: ${WHY[from]}`);
}

/** A request whose order is paid is not withdrawn: the money goes back by refunding the order. */
export function paidRequestRefusal(orderId: string): AppError {
  return new AppError(
    'CONFLICT',
    `this request cannot be cancelled: its order is paid; refund the order instead (POST /v1/orders/${orderId}/refund)`,
  );
}
