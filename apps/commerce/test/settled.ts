import { expect } from '@jest/globals';
import type { TestPlatform } from '@tinkerdesk/testing';

/** Cents charged and refunded for an order, on the payment provider's own records. */
export interface ProviderMoney {
  charged: number;
  refunded: number;
}

interface OrderSeen {
  state: string;
  receipt: { amount: number } | null;
  latePayments: Array<{ amount: number; state: string }>;
}

/**
 * The rule every cancel-and-pay trial must end in, asserted on money: paid → one charge, no refund,
 * a receipt, and the cancel refused (409); cancelled → whatever was charged was refunded (charges
 * minus refunds = 0 on the provider's records), no receipt, and a charge that got through is on the
 * order as a refunded late payment.
 */
export async function expectSettled(
  platform: TestPlatform,
  trial: { orderId: string; sellerToken: string; price: number; cancelStatus: number; money: ProviderMoney },
): Promise<'paid' | 'cancelled'> {
  const order = (await platform.call('GET', `/v1/orders/${trial.orderId}`, undefined, trial.sellerToken)).body.order as OrderSeen;
  if (order.state === 'paid') {
    expect(trial.money).toEqual({ charged: trial.price, refunded: 0 });
    expect(order.receipt).toMatchObject({ amount: trial.price });
    expect(order.latePayments).toEqual([]);
    expect(trial.cancelStatus).toBe(409);
    return 'paid';
  }
  expect(order.state).toBe('cancelled');
  expect(trial.cancelStatus).toBe(200);
  expect(order.receipt).toBeNull();
  expect(trial.money.charged - trial.money.refunded).toBe(0);
  expect(order.latePayments).toEqual(trial.money.charged > 0 ? [expect.objectContaining({ amount: trial.price, state: 'refunded' })] : []);
  return 'cancelled';
}
