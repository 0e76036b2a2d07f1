import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, linkBuilder, type AccountValidation } from '@tinkerdesk/contracts';
import type {
  ChargeOutcome,
  CheckoutRequest,
  CheckoutSession,
  CheckoutState,
  PaymentProvider,
  SavedCardCharge,
  SetupRequest,
  SetupSession,
  SetupState,
} from '../payments/payment-provider.js';
import { SandboxRepository } from './sandbox.repository.js';

/** A sandbox seller account: sandbox_<name>. */
export const SANDBOX_ACCOUNT = /^sandbox_[A-Za-z0-9_-]{1,48}$/;

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random id with a prefix, like Stripe's (cs_..., pi_...). */
export function sandboxId(prefix: string, length = 24): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i] ?? 0;
    if (b < 248) out += BASE62[b % 62];
  }
  return `${prefix}_${out}`;
}

export const SANDBOX_SETTINGS = Symbol('SANDBOX_SETTINGS');

export interface SandboxSettings {
  publicUrl: string;
  sessionMinutes: number;
}

/**
 * The built-in payment processor: sells for real in test mode with nothing to configure. Its hosted
 * pay page is this site's own (/pay/sandbox/{id}) and takes Stripe's test cards (SandboxService).
 */
@Injectable()
export class SandboxPaymentProvider implements PaymentProvider {
  readonly id = 'sandbox' as const;

  constructor(
    @Inject(SandboxRepository) private readonly sessions: SandboxRepository,
    @Inject(SANDBOX_SETTINGS) private readonly settings: SandboxSettings,
  ) {}

  validateAccount(account: string): Promise<AccountValidation> {
    const valid = SANDBOX_ACCOUNT.test(account);
    return Promise.resolve({
      provider: 'sandbox',
      account,
      valid,
      reason: valid
        ? 'the sandbox takes test payments for every sandbox_ account'
        : 'a sandbox account is named sandbox_ followed by letters, digits, _ or - (for example sandbox_myshop)',
    });
  }

  async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
    const id = sandboxId('sbs');
    await this.sessions.insert({
      id,
      mode: 'payment',
      userId: null,
      orderId: request.orderId,
      account: request.account,
      amount: request.amount,
      currency: request.currency,
      email: request.email,
      productName: request.productName,
      sellerName: request.sellerName,
      successUrl: request.successUrl.replace('{CHECKOUT_SESSION_ID}', id),
      cancelUrl: request.cancelUrl,
      expiresAt: new Date(Date.now() + this.settings.sessionMinutes * 60_000),
    });
    return { id, url: linkBuilder(this.settings.publicUrl).sandboxPay(id) };
  }

  async retrieveCheckout(sessionId: string, account: string): Promise<CheckoutState | null> {
    const row = await this.sessions.find(sessionId);
    if (!row || row.mode !== 'payment' || row.account !== account) return null;
    const expired = row.status === 'expired' || (row.status !== 'complete' && row.expiresAt.getTime() <= Date.now());
    return {
      id: row.id,
      orderId: row.orderId,
      status: row.status === 'complete' ? 'complete' : expired ? 'expired' : 'open',
      paid: row.status === 'complete',
      amount: row.amount,
      paymentId: row.paymentIntent,
      failure: row.error,
    };
  }

  async expireCheckout(sessionId: string, account: string): Promise<CheckoutState | null> {
    await this.sessions.transition(sessionId, ['open', 'requires_action'], 'expired', {});
    return this.retrieveCheckout(sessionId, account);
  }

  /**
   * Refunds `amount` cents of a payment, as Stripe does: the same idempotency key again answers the
   * same refund; more than what remains of the payment is refused.
   */
  async refund(paymentId: string, account: string, amount: number, idempotencyKey: string): Promise<{ id: string }> {
    const refund = await this.sessions.refund(paymentId, account, amount, idempotencyKey);
    if (refund === 'missing') throw new AppError('CONFLICT', 'the sandbox has no refundable payment ' + paymentId);
    if (refund === 'too_much')
      throw new AppError('CONFLICT', `the sandbox cannot refund ${amount} cents of ${paymentId}: more than remains`);
    return refund;
  }

  /** The sandbox's page in setup mode: the payer saves a test card (SandboxService.pay keeps it). */
  async createSetup(request: SetupRequest): Promise<SetupSession> {
    const id = sandboxId('sbs');
    await this.sessions.insert({
      id,
      mode: 'setup',
      orderId: null,
      userId: request.userId,
      account: 'sandbox_platform',
      amount: 0,
      currency: 'USD',
      email: request.email ?? '',
      productName: 'Save a card',
      sellerName: 'Tinkerdesk',
      successUrl: request.successUrl.replace('{CHECKOUT_SESSION_ID}', id),
      cancelUrl: request.cancelUrl,
      expiresAt: new Date(Date.now() + this.settings.sessionMinutes * 60_000),
    });
    return { id, url: linkBuilder(this.settings.publicUrl).sandboxPay(id), customerRef: null };
  }

  async retrieveSetup(sessionId: string): Promise<SetupState | null> {
    const row = await this.sessions.find(sessionId);
    if (!row || row.mode !== 'setup') return null;
    if (row.status === 'complete' && row.cardId) {
      const card = await this.sessions.findCard(row.cardId);
      if (card)
        return {
          status: 'complete',
          userId: row.userId,
          card: { ref: card.id, customerRef: null, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear },
        };
    }
    const expired = row.status === 'expired' || row.expiresAt.getTime() <= Date.now();
    return { status: expired ? 'expired' : 'open', userId: row.userId };
  }

  /** Charges a saved test card: once per idempotency key; the 0341 card and forgotten cards are declined. */
  async chargeSaved(charge: SavedCardCharge): Promise<ChargeOutcome> {
    if (!SANDBOX_ACCOUNT.test(charge.account)) throw new AppError('ACCOUNT_INVALID', `the sandbox knows no account ${charge.account}`);
    const card = await this.sessions.findCard(charge.card.ref);
    if (!card) return { paid: false, reason: 'The card is no longer saved.' };
    const reason = card.detached ? 'The card is no longer saved.' : card.chargesFail ? 'Your card was declined.' : null;
    const made = await this.sessions.charge({
      id: sandboxId('pi_sandbox'),
      idempotencyKey: charge.idempotencyKey,
      cardId: charge.card.ref,
      account: charge.account,
      amount: charge.amount,
      paid: reason === null,
      error: reason,
    });
    return made.paid ? { paid: true, paymentId: made.id } : { paid: false, reason: made.error ?? 'Your card was declined.' };
  }

  async detachCard(ref: string): Promise<void> {
    await this.sessions.detachCard(ref);
  }
}
