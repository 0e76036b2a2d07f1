import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  CHECKOUT_SESSION_PLACEHOLDER,
  linkBuilder,
  type PaymentInstrumentList,
  type PaymentInstrumentView,
  type PaymentProviderId,
  type PaymentSetupView,
} from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import { COMMERCE_LOGGER } from '../logger.token.js';
import { IdentityDirectory } from '../notify/identity-directory.js';
import { PAYMENT_PROVIDERS_TOKEN, type PaymentProviders } from '../payments/payment-provider.js';
import { TimelineService } from '../timeline/timeline.service.js';
import { MethodsRepository, type MethodRow } from './methods.repository.js';

export const METHODS_SETTINGS = Symbol('METHODS_SETTINGS');

export interface MethodsSettings {
  publicUrl: string;
  /** Stripe is set up (STRIPE_SECRET_KEY): new cards are kept there unless the sandbox is asked for. */
  stripeConfigured: boolean;
}

const describe = (m: Pick<MethodRow, 'brand' | 'last4'>) =>
  `${m.brand === 'unknown' ? 'card' : m.brand.charAt(0).toUpperCase() + m.brand.slice(1)} card ending ${m.last4}`;

export function toInstrument(m: MethodRow): PaymentInstrumentView {
  return {
    id: m.id,
    provider: m.provider,
    brand: m.brand,
    last4: m.last4,
    expMonth: m.expMonth,
    expYear: m.expYear,
    default: m.isDefault,
    plans: m.plans,
    created: m.created.toISOString(),
  };
}

/**
 * Saved cards: the provider's own page saves one (Stripe Checkout in setup mode, or the sandbox's
 * page with its test cards) and sends the browser back to /billing?setup={session}, where
 * `complete` keeps it; listed, made default, deleted (the plans a card pays for move to another first).
 */
@Injectable()
export class MethodsService {
  private readonly links;

  constructor(
    @Inject(MethodsRepository) private readonly methods: MethodsRepository,
    @Inject(PAYMENT_PROVIDERS_TOKEN) private readonly providers: PaymentProviders,
    @Inject(IdentityDirectory) private readonly identity: IdentityDirectory,
    @Inject(TimelineService) private readonly timeline: TimelineService,
    @Inject(METHODS_SETTINGS) private readonly settings: MethodsSettings,
    @Inject(COMMERCE_LOGGER) private readonly logger: Logger,
  ) {
    this.links = linkBuilder(settings.publicUrl);
  }

  async setup(userId: string, provider?: PaymentProviderId): Promise<PaymentSetupView> {
    const chosen: PaymentProviderId = provider ?? (this.settings.stripeConfigured ? 'stripe' : 'sandbox');
    const [customerRef, email] = await Promise.all([this.methods.customerRef(userId, chosen), this.identity.verifiedEmail(userId)]);
    const session = await this.providers[chosen].createSetup({
      userId,
      email,
      customerRef,
      successUrl: this.links.billing(CHECKOUT_SESSION_PLACEHOLDER),
      cancelUrl: this.links.billing(),
      idempotencyKey: `setup:${userId}:${randomUUID()}`,
    });
    if (session.customerRef && session.customerRef !== customerRef) await this.methods.saveCustomer(userId, chosen, session.customerRef);
    return { id: session.id, provider: chosen, url: session.url };
  }

  /** The setup page came back: keeps the card it saved (once, however often the page returns). */
  async complete(userId: string, sessionId: string): Promise<PaymentInstrumentView> {
    const provider: PaymentProviderId = sessionId.startsWith('sbs_') ? 'sandbox' : 'stripe';
    const state = await this.providers[provider].retrieveSetup(sessionId);
    if (!state || state.userId !== userId) throw new AppError('NOT_FOUND', 'no such card setup');
    if (state.status !== 'complete')
      throw new AppError(
        'CONFLICT',
        state.status === 'expired'
          ? 'this card setup has expired: add the card again'
          : 'the card is not saved yet: finish the card page first',
      );
    const { row, created } = await this.methods.insert({
      id: randomUUID(),
      userId,
      provider,
      ref: state.card.ref,
      customerRef: state.card.customerRef,
      brand: state.card.brand,
      last4: state.card.last4,
      expMonth: state.card.expMonth,
      expYear: state.card.expYear,
    });
    if (created) await this.timeline.record({ userId, kind: 'method.added', title: `You saved your ${describe(row)}` });
    return toInstrument(row);
  }

  async list(userId: string): Promise<PaymentInstrumentList> {
    return {
      instruments: (await this.methods.list(userId)).map(toInstrument),
      providers: this.settings.stripeConfigured ? ['stripe', 'sandbox'] : ['sandbox'],
    };
  }

  async makeDefault(userId: string, methodId: string): Promise<PaymentInstrumentView> {
    const before = await this.methods.find(methodId, userId);
    if (!before) throw new AppError('NOT_FOUND', 'no such payment method');
    const row = await this.methods.setDefault(methodId, userId);
    if (!row) throw new AppError('NOT_FOUND', 'no such payment method');
    if (!before.isDefault)
      await this.timeline.record({ userId, kind: 'method.default', title: `Your ${describe(row)} is now your default card` });
    return toInstrument(row);
  }

  async remove(userId: string, methodId: string, replacement?: string): Promise<void> {
    const deleted = await this.methods.delete(methodId, userId, replacement);
    if (!deleted) throw new AppError('NOT_FOUND', 'no such payment method');
    try {
      await this.providers[deleted.row.provider].detachCard(deleted.row.ref);
    } catch (error) {
      // Forgotten here already; the provider keeps a card nothing will charge.
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error), method: methodId },
        'could not detach a card at its provider',
      );
    }
    const moved = deleted.moved.length;
    await this.timeline.record({
      userId,
      kind: 'method.removed',
      title: `You removed your ${describe(deleted.row)}${moved ? `; ${moved === 1 ? 'its plan is' : `its ${moved} plans are`} paid with another card now` : ''}`,
    });
  }
}
