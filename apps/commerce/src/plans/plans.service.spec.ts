import { describe, expect, it } from '@jest/globals';
import { AppError, COMMERCE_EVENTS } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import { guardEachTest, inside, network } from '../../test/transaction-guard.js';
import type { CommerceEventRecord } from '../events/commerce-events.js';
import type { MethodsRepository } from '../methods/methods.repository.js';
import type { IdentityDirectory } from '../notify/identity-directory.js';
import type { PaymentProviders } from '../payments/payment-provider.js';
import type { ProductsRepository } from '../products/products.repository.js';
import type { ProviderServicesRepository } from '../services/provider-services.repository.js';
import type { TimelineService } from '../timeline/timeline.service.js';
import type { ChargeResult, PlanRow, PlansRepository } from './plans.repository.js';
import { PlansService } from './plans.service.js';

/**
 * A plan's due charge with its repository, the provider and identity faked, under the guard of
 * transaction-guard.ts: the card is charged before the outcome's transaction, and payer and seller
 * are told from the event recorded with the outcome (no timeline write or mail of its own).
 */
guardEachTest();

const NOW = new Date('2027-03-01T12:00:00Z');

const plan = (): PlanRow & { card: { ref: string; customerRef: string | null } } => ({
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
  card: { ref: 'pm_sandbox_1', customerRef: null },
});

function setup(charge: () => Promise<{ paid: true; paymentId: string } | { paid: false; reason: string }>) {
  const recorded: Array<{ result: ChargeResult; events: CommerceEventRecord[] }> = [];
  const told: string[] = [];
  const repository = {
    claim: () => Promise.resolve(plan()),
    release: () => Promise.resolve(),
    record: (_plan: PlanRow, _due: Date, _id: string, result: ChargeResult, events: CommerceEventRecord[] = []) =>
      inside(() => Promise.resolve(void recorded.push({ result, events })).then(() => true)),
  };
  const provider = {
    chargeSaved: () => {
      network('chargeSaved');
      return charge();
    },
  };
  const identity = {
    mail: () => Promise.resolve(void told.push('mail')),
    verifiedEmail: () => {
      network('identity.verifiedEmail');
      return Promise.resolve('payer@example.com');
    },
  };
  const sut = new PlansService(
    repository as unknown as PlansRepository,
    {} as MethodsRepository,
    {} as ProviderServicesRepository,
    {} as ProductsRepository,
    { sandbox: provider, stripe: provider } as unknown as PaymentProviders,
    identity as unknown as IdentityDirectory,
    { record: () => Promise.resolve(void told.push('timeline')) } as unknown as TimelineService,
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
