import { Inject, Injectable } from '@nestjs/common';
import { AppError, SANDBOX_CARDS, type SandboxCardDto, type SandboxSessionView } from '@tinkerdesk/contracts';
import { OrdersService } from '../orders/orders.service.js';
import { sandboxId } from './sandbox.provider.js';
import { SandboxRepository, type SandboxSessionRow } from './sandbox.repository.js';

export const DECLINED = 'Your card was declined.';
export const NOT_A_TEST_CARD = 'Your card was declined. Your request was in test mode, but used a non test card.';
export const INVALID_NUMBER = 'Your card number is incorrect.';
export const EXPIRED_CARD = 'Your card has expired.';
export const AUTHENTICATION_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

/** The Luhn check every card number passes. */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

/** What a card does on the sandbox (Stripe's test cards): pays, is declined, or asks for confirmation. */
export function cardOutcome(
  card: SandboxCardDto,
  now = new Date(),
): { outcome: 'pay' | 'authenticate' } | { outcome: 'decline'; reason: string } {
  const digits = card.number.replace(/ /g, '');
  if (!luhn(digits)) return { outcome: 'decline', reason: INVALID_NUMBER };
  const [month, year] = card.expiry.split('/').map((p) => Number(p.trim()));
  const endOfMonth = new Date(Date.UTC(2000 + (year ?? 0), month ?? 0, 1));
  if (endOfMonth.getTime() <= now.getTime()) return { outcome: 'decline', reason: EXPIRED_CARD };
  if (digits === SANDBOX_CARDS.pays) return { outcome: 'pay' };
  if (digits === SANDBOX_CARDS.authenticate) return { outcome: 'authenticate' };
  if (digits === SANDBOX_CARDS.declined) return { outcome: 'decline', reason: DECLINED };
  return { outcome: 'decline', reason: NOT_A_TEST_CARD };
}

/**
 * The sandbox processor's hosted pay page: takes Stripe's test cards, tells the order what happened
 * (as Stripe's webhook would), and makes at most one charge per session whatever the browser does.
 */
@Injectable()
export class SandboxService {
  constructor(
    @Inject(SandboxRepository) private readonly sessions: SandboxRepository,
    @Inject(OrdersService) private readonly orders: OrdersService,
  ) {}

  private async find(sessionId: string): Promise<SandboxSessionRow> {
    const row = await this.sessions.find(sessionId);
    if (!row) throw new AppError('NOT_FOUND', 'no such pay session');
    if ((row.status === 'open' || row.status === 'requires_action') && row.expiresAt.getTime() <= Date.now()) {
      return (await this.sessions.transition(row.id, ['open', 'requires_action'], 'expired', { error: row.error })) ?? row;
    }
    return row;
  }

  async get(sessionId: string): Promise<SandboxSessionView> {
    return toView(await this.find(sessionId));
  }

  async pay(sessionId: string, card: SandboxCardDto): Promise<SandboxSessionView> {
    const row = await this.find(sessionId);
    if (row.status !== 'open')
      throw new AppError('CONFLICT', `this pay session is ${row.status === 'complete' ? 'paid already' : 'no longer open'}`);
    const result = cardOutcome(card);
    if (result.outcome === 'decline') {
      const declined = await this.sessions.setError(row.id, result.reason);
      if (!declined) throw new AppError('CONFLICT', 'this pay session is no longer open');
      await this.orders.applyFailed(row.orderId, result.reason);
      return toView(declined);
    }
    if (result.outcome === 'authenticate') {
      const asked = await this.sessions.transition(row.id, ['open'], 'requires_action', { error: null });
      if (!asked) throw new AppError('CONFLICT', 'this pay session is no longer open');
      return toView(asked);
    }
    return this.charge(row);
  }

  async authenticate(sessionId: string, approve: boolean): Promise<SandboxSessionView> {
    const row = await this.find(sessionId);
    if (row.status !== 'requires_action') throw new AppError('CONFLICT', 'this pay session is not waiting for a confirmation');
    if (approve) return this.charge(row, ['requires_action']);
    const failed = await this.sessions.transition(row.id, ['requires_action'], 'open', { error: AUTHENTICATION_FAILED });
    if (!failed) throw new AppError('CONFLICT', 'this pay session is no longer open');
    await this.orders.applyFailed(row.orderId, AUTHENTICATION_FAILED);
    return toView(failed);
  }

  async cancel(sessionId: string): Promise<SandboxSessionView> {
    const row = await this.find(sessionId);
    if (row.status === 'complete' || row.status === 'expired') return toView(row);
    return toView((await this.sessions.transition(row.id, ['open', 'requires_action'], 'expired', {})) ?? row);
  }

  /** One charge: of two tries at once only one moves the session to complete. */
  private async charge(row: SandboxSessionRow, from: SandboxSessionRow['status'][] = ['open']): Promise<SandboxSessionView> {
    const paymentIntent = sandboxId('pi_sandbox');
    const paid = await this.sessions.transition(row.id, from, 'complete', { error: null, paymentIntent });
    if (!paid) throw new AppError('CONFLICT', 'this pay session is no longer open');
    await this.orders.applyPaid(row.orderId, {
      sessionId: row.id,
      paymentId: paymentIntent,
      amount: row.amount,
      event: { provider: 'sandbox', id: `${row.id}:paid`, type: 'paid' },
    });
    return toView(paid);
  }
}

function toView(row: SandboxSessionRow): SandboxSessionView {
  return {
    id: row.id,
    orderId: row.orderId,
    status: row.status,
    productName: row.productName,
    sellerName: row.sellerName,
    amount: row.amount,
    currency: 'USD',
    email: row.email,
    error: row.error,
    successUrl: row.successUrl,
    cancelUrl: row.cancelUrl,
  };
}
