import { describe, expect, it } from '@jest/globals';
import { AppError, COMMERCE_EVENTS } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import { guardEachTest, inside, network } from '../../test/transaction-guard.js';
import type { CommerceEventRecord } from '../events/commerce-events.js';
import type { MethodsService } from '../methods/methods.service.js';
import type { PaymentProviders } from '../payments/payment-provider.js';
import type { ProductsService } from '../products/products.service.js';
import type { ProviderServicesService } from '../services/provider-services.service.js';
import type { ChargeResult, PlanRow, PlansRepository } from './plans.repository.js';
import { PlansService } from './plans.service.js';

/**
 * A plan's due charge with its repository, the provider and identity faked, under the guard of
 * transaction-guard.ts: the card is charged before the outcome's transaction, and payer and seller
 * are told from the event recorded with the outcome (no timeline write or mail of its own).
 */
guardEachTest();

const NOW = new Date('2027-03-01T12:00:00Z');

const plan = (): PlanRow => ({
  id: 'plan-1',
  payerId: 'payer-1',
  sellerId: 'seller-1',
  serviceId: 'svc-1',
  productId: 'prod-1',
  product: { name: 'Lesson', price: 2500, currency: 'USD' },
  provider: 'sandbox',
  account: 'sandbox_lessons',
  interval: 'month',
  reminderDay: 1,
  startAt: new Date('2027-03-01T00:00:00Z'),
  timeZone: 'UTC',
  methodId: 'pm-1',
  state: 'active',
  period: 0,
  attempts: 0,
  nextChargeAt: new Date('2027-03-01T00:00:00Z'),
  lastError: null,
  created: new Date(),
  cancelledAt: null,
});

function setup(charge: () => Promise<{ paid: true; paymentId: string } | { paid: false; reason: string }>) {
  const recorded: Array<{ result: ChargeResult | null; events: CommerceEventRecord[] }> = [];
  const told: string[] = [];
  const repository = {
    claim: () => Promise.resolve(plan()),
    release: () => Promise.resolve(),
    find: () => Promise.resolve(plan()),
    insert: (row: PlanRow, events: CommerceEventRecord[] = []) =>
      inside(() => Promise.resolve(void recorded.push({ result: null, events })).then(() => ({ ...plan(), ...row }))),
    cancel: (_id: string, now: Date, events: (p: PlanRow) => CommerceEventRecord[] = () => []) =>
      inside(() => {
        const cancelled: PlanRow = { ...plan(), state: 'cancelled', cancelledAt: now, nextChargeAt: null };
        recorded.push({ result: null, events: events(cancelled) });
        return Promise.resolve(cancelled);
      }),
    charges: () => Promise.resolve(new Map()),
    paidPeriods: () => Promise.resolve(new Map()),
    record: (_plan: PlanRow, _due: Date, _id: string, result: ChargeResult, events: CommerceEventRecord[] = []) =>
      inside(() => Promise.resolve(void recorded.push({ result, events })).then(() => true)),
  };
  const provider = {
    chargeSaved: () => {
      network('chargeSaved');
      return charge();
    },
  };
  const card = { id: 'pm-1', provider: 'sandbox', brand: 'visa', last4: '4242' };
  const methods = {
    chargeCard: () => Promise.resolve({ ref: 'pm_sandbox_1', customerRef: null }),
    card: () => Promise.resolve(card),
    cards: () => Promise.resolve([card]),
  };
  const services = {
    find: () => Promise.resolve({ id: 'svc-1', userId: 'seller-1', name: 'Lessons', provider: 'sandbox', account: 'sandbox_lessons' }),
  };
  const products = {
    find: () => Promise.resolve({ id: 'prod-1', serviceId: 'svc-1', name: 'Lesson', price: 2500, active: true, shipping: null }),
  };
  const sut = new PlansService(
    repository as unknown as PlansRepository,
    methods as unknown as MethodsService,
    services as unknown as ProviderServicesService,
    products as unknown as ProductsService,
    { sandbox: provider, stripe: provider } as unknown as PaymentProviders,
    { now: () => NOW },
    { publicUrl: 'http://shop.test' },
    { warn: () => undefined, error: () => undefined, info: () => undefined } as unknown as Logger,
  );
  return { sut, recorded, told };
}

describe('runDue', () => {
  it('charges outside the transaction and records commerce.plan.charged with the outcome', async () => {
    const { sut, recorded, told } = setup(() => Promise.resolve({ paid: true, paymentId: 'ch_1' }));
    expect(await sut.runDue('plan-1')).toBe('paid');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.events).toEqual([
      expect.objectContaining({
        name: COMMERCE_EVENTS.planCharged,
        aggregateId: 'plan-1',
        payload: expect.objectContaining({ paymentId: 'ch_1', plan: expect.objectContaining({ payerId: 'payer-1', price: 2500 }) }),
      }),
    ]);
    expect(told).toEqual([]);
  });

  it('records commerce.plan.charge_failed with the reason and the next try', async () => {
    const { sut, recorded } = setup(() => Promise.resolve({ paid: false, reason: 'Your card was declined.' }));
    expect(await sut.runDue('plan-1')).toBe('failed');
    expect(recorded[0]!.events).toEqual([
      expect.objectContaining({
        name: COMMERCE_EVENTS.planChargeFailed,
        payload: expect.objectContaining({ reason: 'Your card was declined.', tries: 1, next: expect.any(String) }),
      }),
    ]);
  });

  it('records nothing when the provider cannot be reached (the job is retried)', async () => {
    const { sut, recorded } = setup(() => Promise.reject(new AppError('UPSTREAM_ERROR', 'down')));
    await expect(sut.runDue('plan-1')).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect(recorded).toEqual([]);
  });
});

describe('create and cancel', () => {
  it('records commerce.plan.created with the plan (no timeline write, no network call in its transaction)', async () => {
    const { sut, recorded, told } = setup(() => Promise.reject(new Error('not charged here')));
    const view = await sut.create({
      service: 'svc-1',
      product: 'prod-1',
      interval: 'quarter',
      payerId: 'payer-1',
      reminderDay: 1,
      start: new Date(NOW.getTime() + 3_600_000).toISOString(),
      timeZone: 'UTC',
      paymentMethod: 'pm-1',
    });
    expect(recorded.map((r) => r.events)).toEqual([
      [
        expect.objectContaining({
          name: COMMERCE_EVENTS.planCreated,
          aggregateType: 'plan',
          aggregateId: view.id,
          payload: {
            plan: expect.objectContaining({ id: view.id, payerId: 'payer-1', sellerId: 'seller-1', price: 2500 }),
            interval: 'quarter',
          },
        }),
      ],
    ]);
    expect(told).toEqual([]);
  });

  it('records commerce.plan.cancelled with the change, saying who cancelled', async () => {
    const { sut, recorded } = setup(() => Promise.reject(new Error('not charged here')));
    await sut.cancel('plan-1', 'seller-1');
    expect(recorded.map((r) => r.events)).toEqual([
      [
        expect.objectContaining({
          name: COMMERCE_EVENTS.planCancelled,
          aggregateId: 'plan-1',
          payload: expect.objectContaining({ by: 'seller' }),
        }),
      ],
    ]);
  });
});
