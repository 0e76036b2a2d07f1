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
  | { kind: 'refunded'; eventId: string; account: string | null; paymentId: string; amountRefunded: number }
  | { kind: 'ignored'; eventId: string; type: string };

/** What a page that saves a card is opened for (Stripe: Checkout in setup mode). */
export interface SetupRequest {
  userId: string;
  email: string | null;
  /** The payer's customer at the provider, when one was made before. */
  customerRef: string | null;
  /** Contains {CHECKOUT_SESSION_ID}, which the provider fills in. */
  successUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
}

export interface SetupSession {
  id: string;
  url: string;
  /** The customer the card is saved to (made now when there was none). */
  customerRef: string | null;
}

/** A card kept at the provider (its number never reaches us). */
export interface SavedCard {
  /** The provider's id of it (Stripe: pm_...). */
  ref: string;
  customerRef: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** What the provider says of a setup page now. */
export type SetupState =
  { status: 'complete'; userId: string | null; card: SavedCard } | { status: 'open' | 'expired'; userId: string | null };

/** An off-session charge of a saved card (a plan's period), on the seller's account. */
export interface SavedCardCharge {
  account: string;
  card: { ref: string; customerRef: string | null };
  /** Cents. */
  amount: number;
  currency: string;
  description: string;
  /** The same key for the same try of the same period: a retried call charges nothing twice. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** A charge's outcome; a provider that cannot be reached throws instead (the try is repeated). */
export type ChargeOutcome = { paid: true; paymentId: string } | { paid: false; reason: string };

/**
 * One interface for every payment provider (Stripe, the built-in sandbox): pay pages for orders,
 * setup pages that save cards, and off-session charges of saved cards for plans. Amounts are integer cents.
 */
export interface PaymentProvider {
  readonly id: PaymentProviderId;
  /** Whether the account exists at the provider and can take charges, and why not. */
  validateAccount(account: string): Promise<AccountValidation>;
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  retrieveCheckout(sessionId: string, account: string): Promise<CheckoutState | null>;
  /**
   * Closes an open session (the order was cancelled); nothing when it is closed already (paid at the
   * same moment, or expired). Answers what the session is afterwards, so a payment that got through
   * first is seen (and refunded); null for no such session.
   */
  expireCheckout(sessionId: string, account: string): Promise<CheckoutState | null>;
  /**
   * Refunds `amount` cents of a payment (several refunds until all of it); the same idempotency key
   * again answers the same refund. Answers the provider's refund id.
   */
  refund(paymentId: string, account: string, amount: number, idempotencyKey: string): Promise<{ id: string }>;
  /** Opens the provider's page where the payer saves a card for later charges. */
  createSetup(request: SetupRequest): Promise<SetupSession>;
  /** The setup page's state, and the card it saved once complete; null for no such page. */
  retrieveSetup(sessionId: string): Promise<SetupState | null>;
  /** Charges a saved card with nobody present (a plan's period). */
  chargeSaved(charge: SavedCardCharge): Promise<ChargeOutcome>;
  /** Forgets a saved card at the provider; nothing when it is gone already. */
  detachCard(ref: string): Promise<void>;
}

export const PAYMENT_PROVIDERS_TOKEN = Symbol('PAYMENT_PROVIDERS');

/** The providers by id. */
export type PaymentProviders = Record<PaymentProviderId, PaymentProvider>;
