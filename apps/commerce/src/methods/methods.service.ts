import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  CHECKOUT_SESSION_PLACEHOLDER,
  COMMERCE_EVENTS,
  linkBuilder,
  type PaymentInstrumentList,
  type PaymentInstrumentView,
  type PaymentProviderId,
  type PaymentSetupView,
  type SetupPaymentMethodMessage,
} from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import { createUnderKey } from '@tinkerdesk/persistence';
import { commerceEvent, type CommerceEventRecord } from '../events/commerce-events.js';
import { COMMERCE_LOGGER } from '../logger.token.js';
import { IdentityDirectory } from '../notify/identity-directory.js';
import { PAYMENT_PROVIDERS_TOKEN, type PaymentProviders } from '../payments/payment-provider.js';
import { MethodsRepository, type CardPlansInTransaction, type CardRow } from './methods.repository.js';

/** A saved card of a payer, with the number of live plans (active or past due) it pays for. */
export interface MethodRow extends CardRow {
  plans: number;
}

/**
 * What cards need of the plans they pay for (the plans feature's rows): how many live plans each
 * pays for, and, in a deletion's transaction, locking and moving them. PlansService registers it
 * (useCardPlans), as the plans feature depends on this one.
 */
export interface CardPlans extends CardPlansInTransaction {
  liveCounts(methodIds: string[]): Promise<Map<string, number>>;
}

/** Until the plans feature registers: no card pays for a plan. */
const NO_PLANS: CardPlans = {
  liveCounts: () => Promise.resolve(new Map()),
  lockLive: () => Promise.resolve([]),
  moveTo: () => Promise.resolve(),
};

export const METHODS_SETTINGS = Symbol('METHODS_SETTINGS');

export interface MethodsSettings {
  publicUrl: string;
  /** Stripe is set up (STRIPE_SECRET_KEY): new cards are kept there unless the sandbox is asked for. */
  stripeConfigured: boolean;
}

/** A card's event, about the card (never its provider reference). */
const cardEvent = <N extends typeof COMMERCE_EVENTS.methodAdded | typeof COMMERCE_EVENTS.methodDefaultChanged>(
  name: N,
  m: CardRow,
): CommerceEventRecord<N> =>
  commerceEvent(name, { type: 'method', id: m.id }, { method: { id: m.id, userId: m.userId, brand: m.brand, last4: m.last4 } });

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
  private plans: CardPlans = NO_PLANS;

  constructor(
    @Inject(MethodsRepository) private readonly methods: MethodsRepository,
    @Inject(PAYMENT_PROVIDERS_TOKEN) private readonly providers: PaymentProviders,
    @Inject(IdentityDirectory) private readonly identity: IdentityDirectory,
    @Inject(METHODS_SETTINGS) private readonly settings: MethodsSettings,
    @Inject(COMMERCE_LOGGER) private readonly logger: Logger,
  ) {
    this.links = linkBuilder(settings.publicUrl);
  }

  /** The plans feature registers what a card asks of the plans it pays for (CardPlans). */
  useCardPlans(plans: CardPlans): void {
    this.plans = plans;
  }

  /** Cards with the count of live plans each pays for (asked of the plans feature). */
  private async withPlans(rows: CardRow[]): Promise<MethodRow[]> {
    const counts = rows.length === 0 ? new Map<string, number>() : await this.plans.liveCounts(rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, plans: counts.get(r.id) ?? 0 }));
  }

  private async oneWithPlans(row: CardRow): Promise<MethodRow> {
    const [withCount] = await this.withPlans([row]);
    return withCount!;
  }

  /**
   * Opens the provider's page that saves a card. Under an Idempotency-Key once: a retry (or the same
   * request alongside) answers the first page, and the provider is asked with a key of its own made
   * from it (Stripe makes one session however often it is asked).
   */
  async setup(input: SetupPaymentMethodMessage): Promise<PaymentSetupView> {
    const { userId } = input;
    const chosen: PaymentProviderId = input.provider ?? (this.settings.stripeConfigured ? 'stripe' : 'sandbox');
    const idempotent = createUnderKey('card.setup', userId, { ...input, provider: chosen });
    const { answer } = await this.methods.setupOnce(idempotent, async () => {
      const [customerRef, email] = await Promise.all([this.methods.customerRef(userId, chosen), this.identity.verifiedEmail(userId)]);
      const session = await this.providers[chosen].createSetup({
        userId,
        email,
        customerRef,
        successUrl: this.links.billing(CHECKOUT_SESSION_PLACEHOLDER),
        cancelUrl: this.links.billing(),
        idempotencyKey: `setup:${userId}:${input.idempotencyKey ?? randomUUID()}`,
      });
      if (session.customerRef && session.customerRef !== customerRef) await this.methods.saveCustomer(userId, chosen, session.customerRef);
      return { id: session.id, provider: chosen, url: session.url };
    });
    return answer;
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
    // The timeline entry follows from the event recorded with a card kept now, after commit.
    const { row } = await this.methods.insert(
      {
        id: randomUUID(),
        userId,
        provider,
        ref: state.card.ref,
        customerRef: state.card.customerRef,
        brand: state.card.brand,
        last4: state.card.last4,
        expMonth: state.card.expMonth,
        expYear: state.card.expYear,
      },
      (kept) => [cardEvent(COMMERCE_EVENTS.methodAdded, kept)],
    );
    return toInstrument(await this.oneWithPlans(row));
  }

  async list(userId: string): Promise<PaymentInstrumentList> {
    return {
      instruments: (await this.withPlans(await this.methods.list(userId))).map(toInstrument),
      providers: this.settings.stripeConfigured ? ['stripe', 'sandbox'] : ['sandbox'],
    };
  }

  async makeDefault(userId: string, methodId: string): Promise<PaymentInstrumentView> {
    const before = await this.methods.find(methodId, userId);
    if (!before) throw new AppError('NOT_FOUND', 'no such payment method');
    const row = await this.methods.setDefault(methodId, userId, (card) =>
      before.isDefault ? [] : [cardEvent(COMMERCE_EVENTS.methodDefaultChanged, card)],
    );
    if (!row) throw new AppError('NOT_FOUND', 'no such payment method');
    return toInstrument(await this.oneWithPlans(row));
  }

  async remove(userId: string, methodId: string, replacement?: string): Promise<void> {
    const deleted = await this.methods.delete(methodId, userId, replacement, this.plans, ({ row, moved }) => [
      commerceEvent(
        COMMERCE_EVENTS.methodRemoved,
        { type: 'method', id: row.id },
        { method: { id: row.id, userId: row.userId, brand: row.brand, last4: row.last4 }, movedPlans: moved.length },
      ),
    ]);
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
  }

  /** A saved card of the payer, as rows (plans choose theirs through here). */
  card(id: string, userId: string): Promise<CardRow | null> {
    return this.methods.find(id, userId);
  }

  /** The payer's saved cards, as rows. */
  cards(userId: string): Promise<CardRow[]> {
    return this.methods.list(userId);
  }

  /** What charges a saved card at its provider (the plan scheduler, for a plan's card); null when it is gone. */
  chargeCard(id: string): Promise<{ ref: string; customerRef: string | null } | null> {
    return this.methods.card(id);
  }
}
