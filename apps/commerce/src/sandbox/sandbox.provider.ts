import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, linkBuilder, type AccountValidation } from '@tinkerdesk/contracts';
import type { CheckoutRequest, CheckoutSession, CheckoutState, PaymentProvider } from '../payments/payment-provider.js';
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
    if (!row || row.account !== account) return null;
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

  async expireCheckout(sessionId: string): Promise<void> {
    await this.sessions.transition(sessionId, ['open', 'requires_action'], 'expired', {});
  }

  async refund(paymentId: string, account: string): Promise<void> {
    if (!(await this.sessions.markRefunded(paymentId, account))) {
      throw new AppError('CONFLICT', 'the sandbox has no refundable payment ' + paymentId);
    }
  }
}
