import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  AppError,
  COMMERCE_EVENTS,
  canonicalTimeZone,
  type CreatePlanMessage,
  type PlanChargeView,
  type PlanList,
  type PlanView,
} from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import { createUnderKey, type TransactionManager } from '@tinkerdesk/persistence';
import { commerceEvent, planSnapshot } from '../events/commerce-events.js';
import { COMMERCE_LOGGER } from '../logger.token.js';
import { MethodsService, type CardPlans } from '../methods/methods.service.js';
import { PAYMENT_PROVIDERS_TOKEN, type PaymentProviders } from '../payments/payment-provider.js';
import { ProductsService } from '../products/products.service.js';
import { ProviderServicesService } from '../services/provider-services.service.js';
import { CLOCK, type Clock } from './clock.js';
import { dueAt, retryAt, startProblem } from './plan-schedule.js';
import { PlansRepository, type ChargeRow, type PlanRow } from './plans.repository.js';

export const PLANS_SETTINGS = Symbol('PLANS_SETTINGS');

export interface PlansSettings {
  publicUrl: string;
}

/** Something that wants to hear when a plan's next charge (or retry) is due: the scheduler. */
export interface DueListener {
  planDue(planId: string, at: Date): Promise<void>;
}

/** What one run of a due charge did. */
export type ChargeRun = 'paid' | 'failed' | 'nothing' | 'lost';

const chargeView = (c: ChargeRow): PlanChargeView => ({
  id: c.id,
  period: c.period,
  due: c.dueAt.toISOString(),
  state: c.state,
  amount: c.amount,
  attempts: c.attempts,
  error: c.error,
  created: c.created.toISOString(),
});

/**
 * Plans: recurring payments for a product, charged to a saved card on schedule with nobody present
 * (plan-schedule.ts says when; PlanScheduler runs the charges on BullMQ). A period is charged at most
 * once whatever runs it: one runner holds a due plan at a time (a claim in PostgreSQL), the provider
 * call carries an idempotency key per period and try, and the result is recorded only if the plan is
 * still at that period and try. A failed charge is retried (PLAN_RETRY_HOURS) and the payer told;
 * when the retries are spent the plan is unpaid. Cancelling stops every later charge at once.
 */
@Injectable()
export class PlansService implements CardPlans, OnModuleInit {
  private listener: DueListener | null = null;

  constructor(
    @Inject(PlansRepository) private readonly plans: PlansRepository,
    @Inject(MethodsService) private readonly methods: MethodsService,
    @Inject(ProviderServicesService) private readonly services: ProviderServicesService,
    @Inject(ProductsService) private readonly products: ProductsService,
    @Inject(PAYMENT_PROVIDERS_TOKEN) private readonly providers: PaymentProviders,
    @Inject(CLOCK) private readonly clock: Clock,
    // The links of the plan's emails are the mail listener's now (CommerceReactions).
    @Inject(PLANS_SETTINGS) _settings: PlansSettings,
    @Inject(COMMERCE_LOGGER) private readonly logger: Logger,
  ) {}

  /** Cards ask the plans they pay for through this feature (counts; locked and moved with a deleted card). */
  onModuleInit(): void {
    this.methods.useCardPlans(this);
  }

  liveCounts(methodIds: string[]): Promise<Map<string, number>> {
    return this.plans.liveCountsByCard(methodIds);
  }

  lockLive(manager: TransactionManager, methodId: string): Promise<string[]> {
    return this.plans.lockLiveOfCard(manager, methodId);
  }

  moveTo(manager: TransactionManager, planIds: string[], methodId: string): Promise<void> {
    return this.plans.moveToCard(manager, planIds, methodId);
  }

  /** The scheduler registers here to hear of new due times. */
  onDue(listener: DueListener): void {
    this.listener = listener;
  }

  private async announce(planId: string, at: Date | null): Promise<void> {
    if (!at || !this.listener) return;
    try {
      await this.listener.planDue(planId, at);
    } catch (error) {
      // The scheduler's sweep finds the plan anyway.
      this.logger.warn({ err: error instanceof Error ? error.message : String(error), plan: planId }, 'could not schedule a plan charge');
    }
  }

  async create(input: CreatePlanMessage): Promise<PlanView> {
    const service = await this.services.find(input.service);
    if (!service) throw new AppError('NOT_FOUND', 'no such service');
    const product = await this.products.find(input.product);
    if (!product || product.serviceId !== service.id) throw new AppError('NOT_FOUND', 'no such product');
    if (!product.active) throw new AppError('CONFLICT', 'this product is not for sale at the moment');
    if (product.shipping) throw new AppError('UNPROCESSABLE', 'plans are for products that are not shipped');
    if (service.userId === input.payerId) throw new AppError('UNPROCESSABLE', 'a plan cannot pay your own service');
    const timeZone = canonicalTimeZone(input.timeZone);
    if (!timeZone) throw new AppError('VALIDATION_FAILED', 'timeZone must be an IANA time zone (for example America/New_York)');
    const start = new Date(input.start);
    const problem = startProblem(start, this.clock.now());
    if (problem) throw new AppError('VALIDATION_FAILED', problem);
    const method = await this.methods.card(input.paymentMethod, input.payerId);
    if (!method) throw new AppError('NOT_FOUND', 'no such payment method');
    if (method.provider !== service.provider)
      throw new AppError('UNPROCESSABLE', `this seller takes cards kept by ${service.provider}: add one of those first`);
    const id = randomUUID();
    const row = {
      id,
      payerId: input.payerId,
      sellerId: service.userId,
      serviceId: service.id,
      productId: product.id,
      product: { name: product.name, price: product.price, currency: 'USD' as const },
      provider: method.provider,
      account: service.account,
      interval: input.interval,
      reminderDay: input.reminderDay,
      startAt: start,
      timeZone,
      methodId: method.id,
      nextChargeAt: start,
    };
    // Both sides' timelines follow from the event, after commit.
    const created = commerceEvent(COMMERCE_EVENTS.planCreated, { type: 'plan', id }, { plan: planSnapshot(row), interval: input.interval });
    const plan = await this.plans.insert(row, [created], createUnderKey('plan.create', input.payerId, input));
    await this.announce(plan.id, start);
    return (await this.views([plan], input.payerId))[0]!;
  }

  async list(userId: string): Promise<PlanList> {
    return { plans: await this.views(await this.plans.listFor(userId), userId) };
  }

  private async visible(planId: string, viewerId: string): Promise<PlanRow> {
    const plan = await this.plans.find(planId);
    if (!plan || (plan.payerId !== viewerId && plan.sellerId !== viewerId)) throw new AppError('NOT_FOUND', 'no such plan');
    return plan;
  }

  async get(planId: string, viewerId: string): Promise<PlanView> {
    return (await this.views([await this.visible(planId, viewerId)], viewerId))[0]!;
  }

  /** Its payer or its seller ends a plan: nothing more is charged. Cancelling again changes nothing. */
  async cancel(planId: string, viewerId: string): Promise<PlanView> {
    const plan = await this.visible(planId, viewerId);
    const by = viewerId === plan.payerId ? 'payer' : 'seller';
    // Both sides' timelines follow from the event recorded with the change, after commit.
    const cancelled = await this.plans.cancel(plan.id, this.clock.now(), (done) => [
      commerceEvent(COMMERCE_EVENTS.planCancelled, { type: 'plan', id: done.id }, { plan: planSnapshot(done), by }),
    ]);
    return (await this.views([cancelled ?? plan], viewerId))[0]!;
  }

  /** Plans due now that no runner holds (the scheduler's sweep). */
  due(): Promise<Array<{ id: string; period: number; attempts: number }>> {
    return this.plans.due(this.clock.now());
  }

  /**
   * Runs a plan's due charge, if it is due and no other runner holds it: charges the card once for
   * the period and try, records the outcome, tells payer and seller, and announces the next due time.
   * A provider that cannot be reached throws: the plan is let go and the job retried.
   */
  async runDue(planId: string): Promise<ChargeRun> {
    const now = this.clock.now();
    const plan = await this.plans.claim(planId, now);
    if (!plan) return 'nothing';
    const due = dueAt(plan, plan.period);
    const tries = plan.attempts + 1;
    let outcome: { paid: true; paymentId: string } | { paid: false; reason: string };
    // The card is the methods feature's: asked of it (a database read, nothing at the provider yet).
    const card = plan.methodId === null ? null : await this.methods.chargeCard(plan.methodId);
    if (!card) outcome = { paid: false, reason: 'The plan has no card: add one and choose it for the plan.' };
    else {
      try {
        outcome = await this.providers[plan.provider].chargeSaved({
          account: plan.account,
          card,
          amount: plan.product.price,
          currency: plan.product.currency,
          description: `${plan.product.name} (plan ${plan.id}, period ${plan.period + 1})`,
          idempotencyKey: `plan:${plan.id}:${plan.period}:${plan.attempts}`,
          metadata: { planId: plan.id, period: String(plan.period) },
        });
      } catch (error) {
        if (error instanceof AppError && (error.code === 'ACCOUNT_INVALID' || error.code === 'UNPROCESSABLE')) {
          // The seller's account cannot take payments: a failed try (retried, then the plan is unpaid), not an outage.
          this.logger.warn({ plan: plan.id, err: error.detail }, 'a plan charge was refused for the seller account');
          outcome = { paid: false, reason: 'The seller cannot take payments at the moment.' };
        } else {
          await this.plans.release(plan.id);
          throw error;
        }
      }
    }
    const next = outcome.paid ? dueAt(plan, plan.period + 1) : retryAt(now, tries);
    const snapshot = planSnapshot(plan);
    const aggregate = { type: 'plan' as const, id: plan.id };
    // Payer and seller are told by the listeners (timeline, mail), from the event recorded with the outcome.
    const told = outcome.paid
      ? commerceEvent(COMMERCE_EVENTS.planCharged, aggregate, {
          plan: snapshot,
          paymentId: outcome.paymentId,
          next: next?.toISOString() ?? null,
        })
      : commerceEvent(COMMERCE_EVENTS.planChargeFailed, aggregate, {
          plan: snapshot,
          reason: outcome.reason,
          next: next?.toISOString() ?? null,
          tries,
        });
    const recorded = await this.plans.record(
      plan,
      due,
      randomUUID(),
      outcome.paid
        ? { paid: true, paymentRef: outcome.paymentId, next: next! }
        : { paid: false, error: outcome.reason, next, state: next ? 'past_due' : 'unpaid' },
      [told],
    );
    if (!recorded) return 'lost';
    await this.announce(plan.id, next);
    return outcome.paid ? 'paid' : 'failed';
  }

  private async views(rows: PlanRow[], viewerId: string): Promise<PlanView[]> {
    const ids = rows.map((p) => p.id);
    const [charges, paid, methods, services] = await Promise.all([
      this.plans.charges(ids),
      this.plans.paidPeriods(ids),
      this.methods.cards(viewerId),
      Promise.all([...new Set(rows.map((p) => p.serviceId))].map((id) => this.services.find(id))),
    ]);
    const methodOf = new Map(methods.map((m) => [m.id, m]));
    const serviceOf = new Map(services.filter((s) => s !== null).map((s) => [s.id, s]));
    return rows.map((p) => {
      const method = p.methodId ? methodOf.get(p.methodId) : undefined;
      const service = serviceOf.get(p.serviceId);
      return {
        id: p.id,
        state: p.state,
        role: p.payerId === viewerId ? 'payer' : 'seller',
        service: { id: p.serviceId, name: service?.name ?? '', provider: p.provider },
        product: { id: p.productId, name: p.product.name, price: p.product.price, currency: 'USD' },
        // A plan's service always exists (plan.service_id references it).
        seller: { guid: p.sellerId, name: service?.displayName ?? '' },
        interval: p.interval,
        reminderDay: p.reminderDay,
        start: p.startAt.toISOString(),
        timeZone: p.timeZone,
        // The seller sees that a card pays, not which.
        paymentMethod: method ? { id: method.id, brand: method.brand, last4: method.last4 } : null,
        nextCharge: p.nextChargeAt?.toISOString() ?? null,
        paidPeriods: paid.get(p.id) ?? 0,
        lastError: p.lastError,
        charges: (charges.get(p.id) ?? []).map(chargeView),
        created: p.created.toISOString(),
        cancelled: p.cancelledAt?.toISOString() ?? null,
      };
    });
  }
}
