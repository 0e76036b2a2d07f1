import type { LatePaymentEntity } from './late-payment.entity.js';
import type { OrderRefundEntity } from './order-refund.entity.js';
import type { OrderReplyEntity } from './order-reply.entity.js';
import type { OrderEntity } from './order.entity.js';
import type { ReceiptEntity } from './receipt.entity.js';

/**
 * An order with what its view shows, in the view's own terms: the columns the view reads (not the
 * payment's ids, the product or the provider's account), dates as the view's ISO text. A list page
 * reads them so from PostgreSQL (`OrdersRepository.listedOrders`: the dates written by `to_char`, the
 * related rows as JSON objects with the view's keys in its order), so composing a page's views copies
 * nothing twice; a single order's rows are turned into the same (`listedOf`).
 */
export interface ListedOrder {
  order: ListedOrderFields;
  receipt: ListedReceipt | null;
  replies: ListedReply[];
  /** Its done refunds, in the order they were made. */
  refunds: ListedRefund[];
  latePayments: ListedLatePayment[];
}

type Iso<T, K extends keyof T> = Omit<T, K> & { [P in K]: null extends T[P] ? string | null : string };

export type ListedOrderFields = Iso<
  Omit<OrderEntity, 'productId' | 'account' | 'paymentId'>,
  'created' | 'modified' | 'paidAt' | 'fulfilledAt'
>;

export type ListedReceipt = Iso<Omit<ReceiptEntity, 'orderId'>, 'paidAt'>;

export interface ListedReply {
  id: string;
  from: OrderReplyEntity['authorRole'];
  note: string;
  created: string;
}

/** A done refund: when it was made (its refund's time, else when it was asked). */
export interface ListedRefund {
  id: string;
  amount: number;
  reason: OrderRefundEntity['reason'];
  refundedAt: string;
}

export interface ListedLatePayment {
  amount: number;
  state: LatePaymentEntity['state'];
  created: string;
  refundedAt: string | null;
}

const isoOrNull = (date: Date | null): string | null => date?.toISOString() ?? null;

/** An order's rows as read one by one (a single order's view), in a list page's terms. */
export function listedOf(
  { productId: _productId, account: _account, paymentId: _paymentId, ...order }: OrderEntity,
  receipt: ReceiptEntity | null,
  replies: readonly OrderReplyEntity[],
  refunds: readonly OrderRefundEntity[],
  latePayments: readonly Pick<LatePaymentEntity, 'amount' | 'state' | 'created' | 'refundedAt'>[],
): ListedOrder {
  return {
    order: {
      ...order,
      created: order.created.toISOString(),
      modified: order.modified.toISOString(),
      paidAt: isoOrNull(order.paidAt),
      fulfilledAt: isoOrNull(order.fulfilledAt),
    },
    receipt: receipt && listedReceipt(receipt),
    replies: replies.map((r) => ({ id: r.id, from: r.authorRole, note: r.note, created: r.created.toISOString() })),
    refunds: refunds.map((r) => ({ id: r.id, amount: r.amount, reason: r.reason, refundedAt: (r.refundedAt ?? r.created).toISOString() })),
    latePayments: latePayments.map((l) => ({
      amount: l.amount,
      state: l.state,
      created: l.created.toISOString(),
      refundedAt: isoOrNull(l.refundedAt),
    })),
  };
}

export function listedReceipt({ orderId: _orderId, ...receipt }: ReceiptEntity): ListedReceipt {
  return { ...receipt, paidAt: receipt.paidAt.toISOString() };
}
