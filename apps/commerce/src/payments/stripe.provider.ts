import { AppError, type AccountValidation } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import Stripe from 'stripe';
import type {
  ChargeOutcome,
  CheckoutRequest,
  CheckoutSession,
  CheckoutState,
  PaymentEvent,
  PaymentProvider,
  SavedCardCharge,
  SetupRequest,
  SetupSession,
  SetupState,
} from './payment-provider.js';

export interface StripeSettings {
  secretKey: string | undefined;
  webhookSecret: string | undefined;
  /** Another API origin (tests: the loopback Stripe of libs/testing). */
  apiUrl: string | undefined;
  timeoutMs: number;
}

/** A connected account id. */
const ACCOUNT_ID = /^acct_[A-Za-z0-9]{6,}$/;

interface StripeErrorLike {
  type?: string;
  code?: string;
  param?: string;
  statusCode?: number;
  message?: string;
}

function isStripeError(error: unknown): error is StripeErrorLike {
  return error instanceof Stripe.errors.StripeError;
}

/** Stripe has no such object (any more). */
function isMissing(error: unknown): boolean {
  return isStripeError(error) && (error.code === 'resource_missing' || error.statusCode === 404);
}

/** The id of an expandable field, expanded or not. */
const idOf = (value: string | { id?: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

const NEEDS_HOLDER = 'The card needs its holder to confirm this payment.';
const CARD_GONE = 'The saved card can no longer be charged: save a card again.';

/**
 * Stripe: Checkout Sessions on the seller's connected account (direct charges, `Stripe-Account`),
 * with idempotency keys; signed webhooks checked with the SDK's constructEvent; refunds. Saved cards
 * for plans: Customers and cards (PaymentMethods) on the platform account, saved through Checkout in
 * setup mode (its SetupIntent, 3-D Secure included), then charged with nobody present: off-session
 * PaymentIntents confirmed at once, as destination charges from the platform to the seller's account
 * (`transfer_data.destination`). The SDK speaks to api.stripe.com, or to STRIPE_API_URL (the tests'
 * loopback server).
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly id = 'stripe' as const;
  private readonly client: Stripe | undefined;
  /** constructEvent needs an instance, not a key: one for checking signatures when no key is set. */
  private readonly verifier: Stripe;

  constructor(
    private readonly settings: StripeSettings,
    private readonly logger: Logger,
  ) {
    const origin = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
    const options: ConstructorParameters<typeof Stripe>[1] = {
      timeout: settings.timeoutMs,
      maxNetworkRetries: 2,
      telemetry: false,
      appInfo: { name: 'Tinkerdesk' },
      ...(origin
        ? {
            host: origin.hostname,
            port: Number(origin.port || (origin.protocol === 'https:' ? 443 : 80)),
            protocol: origin.protocol === 'http:' ? ('http' as const) : ('https' as const),
          }
        : {}),
    };
    this.client = settings.secretKey ? new Stripe(settings.secretKey, options) : undefined;
    this.verifier = this.client ?? new Stripe('sk_test_signature_checks_only', options);
  }

  private stripe(): Stripe {
    if (!this.client)
      throw new AppError('UNPROCESSABLE', 'payments through Stripe are not set up on this site (STRIPE_SECRET_KEY): choose the sandbox');
    return this.client;
  }

  /** A failure of Stripe itself (or the way to it) as the API's error; the caller's mistakes are theirs. */
  private upstream(error: unknown, what: string): AppError {
    if (error instanceof AppError) return error;
    const e = isStripeError(error) ? error : undefined;
    this.logger.warn({ err: e?.message ?? String(error), type: e?.type, code: e?.code, status: e?.statusCode }, `Stripe: ${what} failed`);
    if (e?.type === 'StripeConnectionError' || e?.type === 'StripeAPIError' || e?.type === 'StripeRateLimitError') {
      return new AppError('UPSTREAM_ERROR', `Stripe could not be reached or failed (${what}); try again shortly`);
    }
    if (e?.type === 'StripePermissionError' || e?.type === 'StripeAuthenticationError') {
      return new AppError('ACCOUNT_INVALID', `Stripe refused: ${e.message ?? 'no access to this account'}`);
    }
    return new AppError('UPSTREAM_ERROR', `Stripe refused (${what}): ${e?.message ?? 'unknown error'}`);
  }

  async validateAccount(account: string): Promise<AccountValidation> {
    const answer = (valid: boolean, reason: string): AccountValidation => ({ provider: 'stripe', account, valid, reason });
    if (!ACCOUNT_ID.test(account)) return answer(false, 'a Stripe connected account id looks like acct_1A2b3C4d5E6f7G8h');
    try {
      const found = await this.stripe().accounts.retrieve(account);
      if (!found.charges_enabled)
        return answer(false, 'the Stripe account exists but cannot take charges yet (its onboarding is not finished)');
      return answer(true, 'the Stripe account exists and can take charges');
    } catch (error) {
      const e = isStripeError(error) ? error : undefined;
      if (e?.code === 'resource_missing' || e?.statusCode === 404) return answer(false, 'Stripe knows no such account');
      if (e?.type === 'StripePermissionError')
        return answer(false, 'this platform has no access to that account: connect it to Tinkerdesk first');
      throw this.upstream(error, 'checking the account');
    }
  }

  async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
    try {
      const session = await this.stripe().checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: request.orderId,
          customer_email: request.email,
          metadata: { orderId: request.orderId },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency.toLowerCase(),
                unit_amount: request.amount,
                product_data: {
                  name: request.productName,
                  ...(request.description ? { description: request.description.slice(0, 500) } : {}),
                },
              },
            },
          ],
          payment_intent_data: {
            receipt_email: request.email,
            description: `${request.sellerName}: ${request.productName}`.slice(0, 1000),
            metadata: { orderId: request.orderId },
            ...(request.statementDescriptor ? { statement_descriptor_suffix: request.statementDescriptor.slice(0, 22) } : {}),
          },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { stripeAccount: request.account, idempotencyKey: request.idempotencyKey },
      );
      if (!session.url) throw new AppError('UPSTREAM_ERROR', 'Stripe answered a Checkout Session without a URL');
      return { id: session.id, url: session.url };
    } catch (error) {
      throw this.upstream(error, 'opening Checkout');
    }
  }

  async retrieveCheckout(sessionId: string, account: string): Promise<CheckoutState | null> {
    try {
      const session = await this.stripe().checkout.sessions.retrieve(sessionId, {}, { stripeAccount: account });
      const paymentIntent = session.payment_intent;
      return {
        id: session.id,
        orderId: session.client_reference_id ?? null,
        status: session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open',
        paid: session.payment_status === 'paid' || session.payment_status === 'no_payment_required',
        amount: session.amount_total ?? 0,
        paymentId: typeof paymentIntent === 'string' ? paymentIntent : (paymentIntent?.id ?? null),
        failure: null,
      };
    } catch (error) {
      if (isStripeError(error) && (error.code === 'resource_missing' || error.statusCode === 404)) return null;
      throw this.upstream(error, 'reading the Checkout Session');
    }
  }

  async expireCheckout(sessionId: string, account: string): Promise<CheckoutState | null> {
    const current = await this.retrieveCheckout(sessionId, account);
    if (current?.status !== 'open') return current;
    try {
      await this.stripe().checkout.sessions.expire(sessionId, {}, { stripeAccount: account });
    } catch (error) {
      // Only open sessions expire: it was completed (or expired) at the same moment; what it is now says which.
      if (!(isStripeError(error) && error.statusCode === 400)) throw this.upstream(error, 'closing the Checkout Session');
    }
    return this.retrieveCheckout(sessionId, account);
  }

  async refund(paymentId: string, account: string, amount: number, idempotencyKey: string): Promise<{ id: string }> {
    try {
      const refund = await this.stripe().refunds.create({ payment_intent: paymentId, amount }, { stripeAccount: account, idempotencyKey });
      return { id: refund.id };
    } catch (error) {
      throw this.upstream(error, 'refunding');
    }
  }

  /** A customer on the platform when the payer has none yet, then Checkout in setup mode for cards. */
  async createSetup(request: SetupRequest): Promise<SetupSession> {
    try {
      let customerRef = request.customerRef;
      if (!customerRef) {
        const customer = await this.stripe().customers.create(
          { ...(request.email ? { email: request.email } : {}), metadata: { userId: request.userId } },
          { idempotencyKey: `${request.idempotencyKey}:customer` },
        );
        customerRef = customer.id;
      }
      const session = await this.stripe().checkout.sessions.create(
        {
          mode: 'setup',
          currency: 'usd',
          customer: customerRef,
          // The pinned API version (2026-09-30 on) filters with this instead of payment_method_types.
          allowed_payment_method_types: ['card'],
          client_reference_id: request.userId,
          metadata: { userId: request.userId },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (!session.url) throw new AppError('UPSTREAM_ERROR', 'Stripe answered a Checkout Session without a URL');
      return { id: session.id, url: session.url, customerRef };
    } catch (error) {
      throw this.upstream(error, 'opening Checkout to save a card');
    }
  }

  async retrieveSetup(sessionId: string): Promise<SetupState | null> {
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe().checkout.sessions.retrieve(sessionId, { expand: ['setup_intent', 'setup_intent.payment_method'] });
    } catch (error) {
      if (isMissing(error)) return null;
      throw this.upstream(error, 'reading the setup Checkout Session');
    }
    if (session.mode !== 'setup') return null;
    const userId = session.client_reference_id ?? null;
    const intent = typeof session.setup_intent === 'object' ? session.setup_intent : null;
    const method = intent && typeof intent.payment_method === 'object' ? intent.payment_method : null;
    if (intent?.status === 'succeeded' && method?.type === 'card' && method.card) {
      return {
        status: 'complete',
        userId,
        card: {
          ref: method.id,
          customerRef: idOf(method.customer) ?? idOf(intent.customer) ?? idOf(session.customer),
          brand: method.card.brand,
          last4: method.card.last4,
          expMonth: method.card.exp_month,
          expYear: method.card.exp_year,
        },
      };
    }
    if (session.status === 'complete') {
      // Closed without a card this can charge (cards are all the page offers): as good as expired.
      this.logger.warn({ sessionId, setupIntent: intent?.id, status: intent?.status }, 'Stripe: a setup session completed without a card');
      return { status: 'expired', userId };
    }
    return { status: session.status === 'expired' ? 'expired' : 'open', userId };
  }

  async chargeSaved(charge: SavedCardCharge): Promise<ChargeOutcome> {
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe().paymentIntents.create(
        {
          amount: charge.amount,
          currency: charge.currency.toLowerCase(),
          ...(charge.card.customerRef ? { customer: charge.card.customerRef } : {}),
          payment_method: charge.card.ref,
          off_session: true,
          confirm: true,
          description: charge.description.slice(0, 1000),
          metadata: charge.metadata,
          transfer_data: { destination: charge.account },
        },
        { idempotencyKey: charge.idempotencyKey },
      );
    } catch (error) {
      const e = isStripeError(error) ? error : undefined;
      // Declined, expired, or it needs its holder (authentication_required): the card's answer, not a fault.
      if (e?.type === 'StripeCardError') return { paid: false, reason: e.message ?? 'The card was declined.' };
      // The card (or its customer) is gone at Stripe: trying again cannot help either.
      if (e?.type === 'StripeInvalidRequestError' && (e.param === 'payment_method' || (e.param === 'customer' && isMissing(error)))) {
        this.logger.warn({ err: e.message, code: e.code, param: e.param }, 'Stripe: the saved card cannot be charged');
        return { paid: false, reason: CARD_GONE };
      }
      // The seller's account cannot take it (disconnected, unknown): not a fault of Stripe's to wait out.
      if (e?.type === 'StripeInvalidRequestError' && e.param?.startsWith('transfer_data'))
        throw new AppError('ACCOUNT_INVALID', `Stripe refused the seller's account: ${e.message ?? 'unknown account'}`);
      throw this.upstream(error, 'charging the saved card');
    }
    if (intent.status === 'processing') {
      // Rare for cards; the same key would only repeat this answer, so ask again rather than charge again.
      try {
        intent = await this.stripe().paymentIntents.retrieve(intent.id);
      } catch (error) {
        throw this.upstream(error, 'reading the charge');
      }
      if (intent.status === 'processing') throw new AppError('UPSTREAM_ERROR', 'Stripe is still processing the charge; try again shortly');
    }
    if (intent.status === 'succeeded') return { paid: true, paymentId: intent.id };
    this.logger.info({ paymentIntent: intent.id, status: intent.status }, 'Stripe: an off-session charge did not go through');
    return { paid: false, reason: intent.last_payment_error?.message ?? NEEDS_HOLDER };
  }

  async detachCard(ref: string): Promise<void> {
    try {
      await this.stripe().paymentMethods.detach(ref);
    } catch (error) {
      if (isMissing(error)) return;
      // Stripe refuses to detach a card attached to nobody (detached before): gone already.
      if (isStripeError(error) && error.type === 'StripeInvalidRequestError' && (await this.attachedToNobody(ref))) return;
      throw this.upstream(error, 'forgetting the saved card');
    }
  }

  private async attachedToNobody(ref: string): Promise<boolean> {
    try {
      return (await this.stripe().paymentMethods.retrieve(ref)).customer === null;
    } catch (error) {
      return isMissing(error);
    }
  }

  /**
   * A webhook's event, once its signature (Stripe's scheme: HMAC-SHA256 of "t.payload", within five
   * minutes) checks out with STRIPE_WEBHOOK_SECRET; SIGNATURE_INVALID otherwise.
   */
  parseWebhook(payload: string, signature: string): PaymentEvent {
    if (!this.settings.webhookSecret)
      throw new AppError('UNPROCESSABLE', 'Stripe webhooks are not set up on this site (STRIPE_WEBHOOK_SECRET)');
    let event: Stripe.Event;
    try {
      event = this.verifier.webhooks.constructEvent(payload, signature, this.settings.webhookSecret);
    } catch {
      throw new AppError('SIGNATURE_INVALID', 'the Stripe-Signature does not match the body (or is too old)');
    }
    const account = event.account ?? null;
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        // A page that saved a card (setup mode) paid no order.
        if (session.mode === 'setup') return { kind: 'ignored', eventId: event.id, type: `${event.type} (setup mode)` };
        const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
        if (!paid) return { kind: 'ignored', eventId: event.id, type: `${event.type} (not paid yet)` };
        const pi = session.payment_intent;
        return {
          kind: 'paid',
          eventId: event.id,
          account,
          sessionId: session.id,
          orderId: session.client_reference_id ?? null,
          paymentId: typeof pi === 'string' ? pi : (pi?.id ?? null),
          amount: session.amount_total ?? 0,
        };
      }
      case 'checkout.session.async_payment_failed': {
        const session = event.data.object;
        return {
          kind: 'failed',
          eventId: event.id,
          account,
          sessionId: session.id,
          orderId: session.client_reference_id ?? null,
          reason: 'The payment failed.',
        };
      }
      case 'checkout.session.expired':
        return { kind: 'expired', eventId: event.id, account, sessionId: event.data.object.id };
      case 'charge.refunded': {
        const charge = event.data.object;
        const pi = charge.payment_intent;
        const paymentId = typeof pi === 'string' ? pi : pi?.id;
        if (!paymentId) return { kind: 'ignored', eventId: event.id, type: event.type };
        return { kind: 'refunded', eventId: event.id, account, paymentId, amountRefunded: charge.amount_refunded };
      }
      default:
        return { kind: 'ignored', eventId: event.id, type: event.type };
    }
  }
}
