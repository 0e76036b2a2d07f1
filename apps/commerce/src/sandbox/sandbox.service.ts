import { Inject, Injectable } from '@nestjs/common';
import { AppError, SANDBOX_CARDS, type SandboxCardDto, type SandboxSessionView } from '@tinkerdesk/contracts';
import { OrdersService } from '../orders/orders.service.js';
import { sandboxId } from './sandbox.provider.js';
import { SandboxRepository, type PendingCard, type SandboxSessionRow } from './sandbox.repository.js';

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
  if (digits === SANDBOX_CARDS.declined || digits === SANDBOX_CARDS.chargeDeclined) return { outcome: 'decline', reason: DECLINED };
  return { outcome: 'decline', reason: NOT_A_TEST_CARD };
}

/**
 * What a card does when it is saved for later (setup mode): Stripe's 0341 card saves (its charges
 * fail later), the declined card is refused, the 3-D Secure card asks once and then charges freely.
 */
export function setupOutcome(card: SandboxCardDto, now = new Date()): ReturnType<typeof cardOutcome> {
  const savesThenDeclines = card.number.replace(/ /g, '') === SANDBOX_CARDS.chargeDeclined;
  return cardOutcome(savesThenDeclines ? { ...card, number: SANDBOX_CARDS.pays } : card, now);
}

/** What the sandbox keeps of a card it saves: never the number. */
function cardToKeep(card: SandboxCardDto): PendingCard {
  const digits = card.number.replace(/ /g, '');
  const [month, year] = card.expiry.split('/').map((p) => Number(p.trim()));
  return {
    brand: cardBrand(digits),
    last4: digits.slice(-4),
    expMonth: month ?? 1,
    expYear: 2000 + (year ?? 0),
    chargesFail: digits === SANDBOX_CARDS.chargeDeclined,
  };
}

/** The brand of a card number, as Stripe names it. */
export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^6(011|5)/.test(digits)) return 'discover';
  return 'unknown';
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
    const result = row.mode === 'setup' ? setupOutcome(card) : cardOutcome(card);
    if (result.outcome === 'decline') {
      const declined = await this.sessions.setError(row.id, result.reason);
      if (!declined) throw new AppError('CONFLICT', 'this pay session is no longer open');
      if (row.orderId) await this.orders.applyFailed(row.orderId, result.reason);
      return toView(declined);
    }
    if (result.outcome === 'authenticate') {
      const pendingCard = row.mode === 'setup' ? cardToKeep(card) : null;
      const asked = await this.sessions.transition(row.id, ['open'], 'requires_action', { error: null, pendingCard });
      if (!asked) throw new AppError('CONFLICT', 'this pay session is no longer open');
      return toView(asked);
    }
    return row.mode === 'setup' ? this.save(row, cardToKeep(card)) : this.charge(row);
  }

  async authenticate(sessionId: string, approve: boolean): Promise<SandboxSessionView> {
    const row = await this.find(sessionId);
    if (row.status !== 'requires_action') throw new AppError('CONFLICT', 'this pay session is not waiting for a confirmation');
    if (approve) {
      if (row.mode === 'payment') return this.charge(row, ['requires_action']);
      if (row.pendingCard) return this.save(row, row.pendingCard, ['requires_action']);
    }
    const failed = await this.sessions.transition(row.id, ['requires_action'], 'open', { error: AUTHENTICATION_FAILED });
    if (!failed) throw new AppError('CONFLICT', 'this pay session is no longer open');
    if (row.orderId) await this.orders.applyFailed(row.orderId, AUTHENTICATION_FAILED);
    return toView(failed);
  }

  /** Saves the card of a setup session: of two tries at once, one card is kept. */
  private async save(
    row: SandboxSessionRow,
    card: PendingCard,
    from: SandboxSessionRow['status'][] = ['open'],
  ): Promise<SandboxSessionView> {
    if (!row.userId) throw new AppError('CONFLICT', 'this page pays an order; it saves no card');
    const saved = await this.sessions.saveCard(row.id, from, { id: sandboxId('pm_sandbox'), userId: row.userId, ...card });
    if (!saved) throw new AppError('CONFLICT', 'this page is no longer open');
    return toView(saved);
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
    if (!row.orderId) throw new AppError('CONFLICT', 'this page saves a card; it pays nothing');
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
    mode: row.mode,
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
