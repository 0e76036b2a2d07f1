import { createHash, randomUUID } from 'node:crypto';
import { AppError, COMMERCE_EVENTS, formatUsd, type PaymentProviderId, type RefundOrderMessage } from '@tinkerdesk/contracts';
import { commerceEvent, orderSnapshot } from '../events/commerce-events.js';
import type { PaymentProviders } from '../payments/payment-provider.js';
import { assertTransition, canTransition } from './order-states.js';
import type { OrderRow, OrdersRepository, OrdersTx, RefundRow } from './orders.repository.js';

/** Cents still refundable: the amount less what is refunded and what pending refunds reserved. */
export function remainingOf(order: Pick<OrderRow, 'amount' | 'refundedAmount'>, refunds: Pick<RefundRow, 'amount' | 'state'>[]): number {
  const reserved = refunds.filter((r) => r.state === 'pending').reduce((sum, r) => sum + r.amount, 0);
  return order.amount - order.refundedAmount - reserved;
}

/**
 * How much one refund takes: `requested` cents (default: all that remains), never more than remains.
 * Nothing left is a CONFLICT; a wrong amount is a VALIDATION_FAILED naming `amount`.
 */
export function refundAmountOf(remaining: number, requested: number | undefined, busy: boolean): number {
  if (remaining <= 0) {
    throw new AppError(
      'CONFLICT',
      busy ? 'a refund of what remains is being made right now; open the order again in a moment' : 'this order has nothing left to refund',
    );
  }
  if (requested === undefined) return remaining;
  if (!Number.isInteger(requested)) throw new AppError('VALIDATION_FAILED', 'amount must be a whole number of cents');
  if (requested <= 0) throw new AppError('VALIDATION_FAILED', 'amount must be more than 0');
  if (requested > remaining)
    throw new AppError('VALIDATION_FAILED', `amount may be at most ${remaining} cents (${formatUsd(remaining)}), what remains to refund`);
  return requested;
}

/** A refund's id from the client's Idempotency-Key: a retry after a failure asks the provider under the same key. */
export function refundIdOf(orderId: string, idempotencyKey: string | undefined): string {
  if (idempotencyKey === undefined) return randomUUID();
  const hex = createHash('sha256').update(`refund:${orderId}:${idempotencyKey}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The seller's refunds of an order, whole or in parts, and refunds made at the provider itself.
 * No network call under a lock: the amount is reserved first (a pending refund row, under the order's
 * lock, so refunds at the same moment never reserve more than the order's amount), the provider is
 * asked after commit (idempotency key `refund-{refund id}`: a retry refunds once, two refunds are two),
 * then the refund is counted under the lock again, or its reservation released when the provider said no.
 */
export class OrderRefunds {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly providers: PaymentProviders,
  ) {}

  async refund(input: RefundOrderMessage): Promise<void> {
    const id = refundIdOf(input.orderId, input.idempotencyKey);
    const reserved = await this.orders.inTransaction(async (tx) => {
      const order = await tx.lockOrder(input.orderId);
      if (!order || order.sellerId !== input.viewerId) throw new AppError('NOT_FOUND', 'no such order');
      assertTransition(order.state, 'refunded', 'refunded');
      if (!order.paymentId) throw new AppError('CONFLICT', 'this order has no payment to refund');
      const refunds = await tx.refundsOf(order.id);
      const same = refunds.find((r) => r.id === id);
      if (same?.state === 'done') return null;
      // Reserved under this Idempotency-Key by a request whose process died before the provider's answer
      // was counted (its key's claim was taken over): the provider is asked again under the same key
      // (`refund-{id}`), so it answers the refund it made, if it made one, and makes none twice.
      if (same) return { order, refund: same, paymentId: order.paymentId };
      const amount = refundAmountOf(
        remainingOf(order, refunds),
        input.amount,
        refunds.some((r) => r.state === 'pending'),
      );
      const refund = {
        id,
        orderId: order.id,
        amount,
        reason: input.reason?.trim() || null,
        state: 'pending' as const,
        providerRefundId: null,
        refundedAt: null,
      };
      await tx.insertRefund(refund);
      return { order, refund, paymentId: order.paymentId };
    });
    if (!reserved) return;
    const { order, refund, paymentId } = reserved;
    let made: { id: string };
    try {
      made = await this.providers[order.provider].refund(paymentId, order.account, refund.amount, `refund-${refund.id}`);
    } catch (error) {
      await this.orders.inTransaction(async (tx) => {
        await tx.lockOrder(order.id);
        await tx.releaseRefund(refund.id);
      });
      throw error;
    }
    const receipt = await this.orders.receipt(order.id);
    await this.orders.inTransaction(async (tx) => {
      const locked = await tx.lockOrder(order.id);
      const done = await tx.finishRefund(refund.id, made.id);
      if (locked && done) await this.count(tx, locked, done, receipt?.number ?? null);
    });
  }

  /**
   * The provider tells of its payment's refunds (Stripe's charge.refunded: all refunded so far). What
   * this order does not know of (refunded in the provider's dashboard) is recorded as one refund;
   * refunds of its own, pending or done, are known already. Applied at most once per event.
   */
  async applyProviderRefund(
    orderId: string,
    event: { provider: PaymentProviderId; id: string; type: string },
    amountRefunded: number,
  ): Promise<boolean> {
    const receipt = await this.orders.receipt(orderId);
    return this.orders.inTransaction(async (tx) => {
      if (!(await tx.claimEvent(event.provider, event.id, event.type))) return false;
      const order = await tx.lockOrder(orderId);
      if (!order || !canTransition(order.state, 'refunded')) return false;
      const known = (await tx.refundsOf(order.id)).reduce((sum, r) => sum + r.amount, 0);
      const extra = Math.min(amountRefunded, order.amount) - known;
      if (extra <= 0) return false;
      const refund = {
        id: randomUUID(),
        orderId: order.id,
        amount: extra,
        reason: null,
        state: 'done' as const,
        providerRefundId: null,
        refundedAt: new Date(),
      };
      await tx.insertRefund(refund);
      await this.count(tx, order, refund, receipt?.number ?? null);
      return true;
    });
  }

  /** Under the order's lock: a refund done is counted; all of it refunded → refunded. Both sides are told (the event). */
  private async count(
    tx: OrdersTx,
    order: OrderRow,
    refund: Pick<RefundRow, 'id' | 'amount' | 'reason'>,
    receipt: string | null,
  ): Promise<void> {
    const refundedAmount = order.refundedAmount + refund.amount;
    const fully = refundedAmount >= order.amount;
    const updated = await tx.updateOrder(
      order.id,
      fully && canTransition(order.state, 'refunded') ? { refundedAmount, state: 'refunded' } : { refundedAmount },
    );
    await tx.record(
      commerceEvent(
        COMMERCE_EVENTS.orderRefunded,
        { type: 'order', id: order.id },
        {
          order: orderSnapshot(updated),
          refund: { id: refund.id, amount: refund.amount, reason: refund.reason },
          refundedAmount,
          fully,
          receipt,
        },
      ),
    );
  }
}
