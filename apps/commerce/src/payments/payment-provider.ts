import type { AccountValidation, PaymentProviderId } from '@tinkerdesk/contracts';

/** What a hosted pay page is opened for. */
export interface CheckoutRequest {
  orderId: string;
  account: string;
  /** Cents. */
  amount: number;
  currency: string;
  productName: string;
  description: string;
  email: string;
  sellerName: string;
  statementDescriptor?: string;
  successUrl: string;
  cancelUrl: string;
  /** Passed on to the provider, so a retried call creates nothing new there either. */
  idempotencyKey: string;
}

export interface CheckoutSession {
  id: string;
  url: string;
}

/** What the provider says of a session now. */
export interface CheckoutState {
  id: string;
  /** The order it was opened for (Stripe: client_reference_id). */
  orderId: string | null;
  status: 'open' | 'complete' | 'expired';
  paid: boolean;
  /** Cents. */
  amount: number;
  /** The provider's payment (Stripe: the PaymentIntent id), once paid. */
  paymentId: string | null;
  /** Why the last try was refused, when the provider says. */
  failure: string | null;
}

/** A provider event, already verified, in the terms orders understand. */
export type PaymentEvent =
  | {
      kind: 'paid';
      eventId: string;
      account: string | null;
      sessionId: string;
      orderId: string | null;
      paymentId: string | null;
      amount: number;
    }
  | { kind: 'failed'; eventId: string; account: string | null; sessionId: string; orderId: string | null; reason: string }
  | { kind: 'expired'; eventId: string; account: string | null; sessionId: string }
  | { kind: 'refunded'; eventId: string; account: string | null; paymentId: string; fully: boolean }
  | { kind: 'ignored'; eventId: string; type: string };

/**
 * One interface for every payment provider (Stripe, the built-in sandbox; part 2 adds saved methods
 * and recurring charges beside these). Amounts are integer cents.
 */
export interface PaymentProvider {
  readonly id: PaymentProviderId;
  /** Whether the account exists at the provider and can take charges, and why not. */
  validateAccount(account: string): Promise<AccountValidation>;
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  retrieveCheckout(sessionId: string, account: string): Promise<CheckoutState | null>;
  /** Closes an open session (the order was cancelled); nothing when it is closed already. */
  expireCheckout(sessionId: string, account: string): Promise<void>;
  refund(paymentId: string, account: string, amount: number, idempotencyKey: string): Promise<void>;
}

export const PAYMENT_PROVIDERS_TOKEN = Symbol('PAYMENT_PROVIDERS');

/** The providers by id. */
export type PaymentProviders = Record<PaymentProviderId, PaymentProvider>;
