import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppError } from '@tinkerdesk/contracts';
import { AUTHENTICATION_REQUIRED_MESSAGE, DECLINED_MESSAGE, startLoopbackStripe, type LoopbackStripe } from '@tinkerdesk/testing';
import type { SavedCard, SavedCardCharge } from '../src/payments/payment-provider.js';
import { StripePaymentProvider } from '../src/payments/stripe.provider.js';

/**
 * The Stripe adapter's saved cards on their own, against the loopback Stripe (the `stripe` SDK pointed
 * at it): a customer and Checkout in setup mode on the platform, the card it saves (3-D Secure and
 * declines included), off-session destination charges to the seller's account with idempotency keys,
 * detaching, and a Stripe that cannot be reached.
 */
const SELLER_ACCOUNT = 'acct_1AdapterSeller';
const CARD = {
  visa: '4242424242424242',
  threeDSecure: '4000002500003155',
  alwaysAuthenticate: '4000002760003184',
  chargeDeclined: '4000000000000341',
  declined: '4000000000000002',
};

type Logger = ConstructorParameters<typeof StripePaymentProvider>[1];
const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Logger;

let stripe: LoopbackStripe;
let provider: StripePaymentProvider;

const providerFor = (server: LoopbackStripe) =>
  new StripePaymentProvider(
    { secretKey: server.secretKey, webhookSecret: server.webhookSecret, apiUrl: server.url, timeoutMs: 5000 },
    logger,
  );

let counter = 0;
const key = (what: string) => `adapter-${what}-${Date.now()}-${++counter}`;

const setupRequest = (userId: string, customerRef: string | null = null) => ({
  userId,
  email: `${userId}@example.com`,
  customerRef,
  successUrl: 'http://shop.test/account/cards/return?session_id={CHECKOUT_SESSION_ID}',
  cancelUrl: 'http://shop.test/account/cards',
  idempotencyKey: key('setup'),
});

/** A card saved through a setup page (authenticated when it asks to be). */
async function savedCard(card = CARD.visa, userId = `user-${++counter}`): Promise<SavedCard> {
  const setup = await provider.createSetup(setupRequest(userId));
  expect(await stripe.saveCard(setup.id, card, { authenticate: true })).toBe('saved');
  const state = await provider.retrieveSetup(setup.id);
  if (state?.status !== 'complete') throw new Error(`the setup page is ${state?.status ?? 'missing'}`);
  return state.card;
}

const chargeOf = (card: SavedCard, idempotencyKey: string, account = SELLER_ACCOUNT): SavedCardCharge => ({
  account,
  card: { ref: card.ref, customerRef: card.customerRef },
  amount: 1500,
  currency: 'USD',
  description: 'Seller: monthly plan',
  idempotencyKey,
  metadata: { planId: 'plan-1', period: '2026-01' },
});

/** Off-session charges that went through for a customer. */
const succeeded = (customer: string | null) => stripe.paymentIntents(customer ?? undefined).filter((p) => p.status === 'succeeded');

const postPage = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    redirect: 'manual',
  });

beforeAll(async () => {
  stripe = await startLoopbackStripe({ accounts: [{ id: SELLER_ACCOUNT, chargesEnabled: true, detailsSubmitted: true }] });
  provider = providerFor(stripe);
});

afterAll(async () => {
  await stripe?.close();
});

describe('saving a card (Checkout in setup mode)', () => {
  it('makes a customer on the platform and a setup session; open until the card is saved, then complete with the card', async () => {
    const request = setupRequest('user-setup');
    const setup = await provider.createSetup(request);
    expect(setup.id).toMatch(/^cs_test_/);
    expect(setup.url).toBe(`${stripe.url}/c/pay/${setup.id}`);
    expect(setup.customerRef).toMatch(/^cus_/);
    expect(stripe.customer(setup.customerRef!)).toMatchObject({ email: 'user-setup@example.com', metadata: { userId: 'user-setup' } });
    expect(stripe.session(setup.id)).toMatchObject({
      mode: 'setup',
      status: 'open',
      currency: 'usd',
      customer: setup.customerRef,
      client_reference_id: 'user-setup',
      metadata: { userId: 'user-setup' },
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      setup_intent: null,
    });
    // The same call again (a retry) makes nothing new.
    expect(await provider.createSetup(request)).toEqual(setup);

    expect(await provider.retrieveSetup(setup.id)).toEqual({ status: 'open', userId: 'user-setup' });
    expect(await stripe.saveCard(setup.id, '4242 4242 4242 4242', { expMonth: 4, expYear: 2031 })).toBe('saved');
    const state = await provider.retrieveSetup(setup.id);
    expect(state).toEqual({
      status: 'complete',
      userId: 'user-setup',
      card: {
        ref: expect.stringMatching(/^pm_/),
        customerRef: setup.customerRef,
        brand: 'visa',
        last4: '4242',
        expMonth: 4,
        expYear: 2031,
      },
    });
    expect(stripe.session(setup.id)).toMatchObject({ status: 'complete', setup_intent: expect.stringMatching(/^seti_/) });
    expect(await stripe.saveCard(setup.id, CARD.visa)).toBe('invalid');
  });

  it('keeps the customer the payer has', async () => {
    const first = await provider.createSetup(setupRequest('user-again'));
    const second = await provider.createSetup(setupRequest('user-again', first.customerRef));
    expect(second.customerRef).toBe(first.customerRef);
    expect(second.id).not.toBe(first.id);
    expect(stripe.session(second.id)).toMatchObject({ customer: first.customerRef });
  });

  it('answers null for a session Stripe does not know', async () => {
    expect(await provider.retrieveSetup('cs_test_unknown123')).toBeNull();
  });

  it('a card that asks for 3-D Secure is saved once authenticated', async () => {
    const setup = await provider.createSetup(setupRequest('user-3ds'));
    expect(await stripe.saveCard(setup.id, CARD.threeDSecure)).toBe('requires_action');
    expect(await provider.retrieveSetup(setup.id)).toEqual({ status: 'open', userId: 'user-3ds' });
    expect(await stripe.saveCard(setup.id, CARD.threeDSecure, { authenticate: false })).toBe('authentication_failed');
    expect(await provider.retrieveSetup(setup.id)).toMatchObject({ status: 'open' });
    expect(await stripe.saveCard(setup.id, CARD.threeDSecure, { authenticate: true })).toBe('saved');
    expect(await provider.retrieveSetup(setup.id)).toMatchObject({ status: 'complete', card: { last4: '3155', brand: 'visa' } });
  });

  it('a card declined at setup leaves the page open for another', async () => {
    const setup = await provider.createSetup(setupRequest('user-declined'));
    expect(await stripe.saveCard(setup.id, CARD.declined)).toBe('declined');
    expect(await provider.retrieveSetup(setup.id)).toEqual({ status: 'open', userId: 'user-declined' });
    expect(await stripe.saveCard(setup.id, CARD.visa)).toBe('saved');
    expect(await provider.retrieveSetup(setup.id)).toMatchObject({ status: 'complete' });
  });

  it('the hosted page saves a card: a decline shown, 3-D Secure answered, then back to the success URL', async () => {
    const setup = await provider.createSetup(setupRequest('user-page'));
    const form = await fetch(setup.url);
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain('Save card');
    expect(html).toContain('user-page@example.com');

    const declined = await postPage(setup.url, { card: '4000 0000 0000 0002', exp: '12 / 34', cvc: '123' });
    expect(declined.status).toBe(200);
    expect(await declined.text()).toContain(`<p role="alert">${DECLINED_MESSAGE}</p>`);

    const challenged = await postPage(setup.url, { card: '4000 0025 0000 3155', exp: '12 / 34', cvc: '123' });
    expect(await challenged.text()).toContain('Complete authentication');
    const done = await postPage(`${setup.url}/authenticate`, { result: 'complete' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`http://shop.test/account/cards/return?session_id=${setup.id}`);
    expect(await provider.retrieveSetup(setup.id)).toMatchObject({
      status: 'complete',
      card: { last4: '3155', expMonth: 12, expYear: 2034 },
    });
  });
});

describe('charging a saved card off-session', () => {
  it('charges once for one idempotency key (a destination charge to the seller); another key charges again', async () => {
    const card = await savedCard();
    const firstKey = key('charge');
    const first = await provider.chargeSaved(chargeOf(card, firstKey));
    expect(first).toEqual({ paid: true, paymentId: expect.stringMatching(/^pi_/) });
    expect(await provider.chargeSaved(chargeOf(card, firstKey))).toEqual(first);
    const together = await Promise.all([provider.chargeSaved(chargeOf(card, firstKey)), provider.chargeSaved(chargeOf(card, firstKey))]);
    expect(together).toEqual([first, first]);
    expect(succeeded(card.customerRef)).toHaveLength(1);
    expect(succeeded(card.customerRef)[0]).toMatchObject({
      amount: 1500,
      currency: 'usd',
      customer: card.customerRef,
      payment_method: card.ref,
      transfer_data: { destination: SELLER_ACCOUNT },
      metadata: { planId: 'plan-1', period: '2026-01' },
      description: 'Seller: monthly plan',
    });

    const second = await provider.chargeSaved(chargeOf(card, key('charge')));
    expect(second).toMatchObject({ paid: true });
    expect(second).not.toEqual(first);
    expect(succeeded(card.customerRef)).toHaveLength(2);
  });

  it('a card saved with 3-D Secure is charged without its holder', async () => {
    const card = await savedCard(CARD.threeDSecure);
    expect(await provider.chargeSaved(chargeOf(card, key('charge')))).toMatchObject({ paid: true });
  });

  it('a card whose charges are declined: not paid, with the reason', async () => {
    const card = await savedCard(CARD.chargeDeclined);
    expect(await provider.chargeSaved(chargeOf(card, key('charge')))).toEqual({ paid: false, reason: DECLINED_MESSAGE });
    expect(succeeded(card.customerRef)).toHaveLength(0);
    expect(stripe.paymentIntents(card.customerRef!)).toMatchObject([{ status: 'requires_payment_method' }]);
  });

  it('a card that always asks for its holder: not paid (authentication_required)', async () => {
    const card = await savedCard(CARD.alwaysAuthenticate);
    expect(await provider.chargeSaved(chargeOf(card, key('charge')))).toEqual({ paid: false, reason: AUTHENTICATION_REQUIRED_MESSAGE });
  });

  it('an account Stripe does not know is an error, not a decline', async () => {
    const card = await savedCard();
    const attempt = provider.chargeSaved(chargeOf(card, key('charge'), 'acct_1NobodyKnowsIt'));
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({ code: 'ACCOUNT_INVALID', detail: expect.stringMatching(/No such destination/) });
    expect(succeeded(card.customerRef)).toHaveLength(0);
  });

  it('a detached card is not charged; detaching again or an unknown card is no error', async () => {
    const card = await savedCard();
    await provider.detachCard(card.ref);
    expect(stripe.paymentMethod(card.ref)).toMatchObject({ customer: null });
    const outcome = await provider.chargeSaved(chargeOf(card, key('charge')));
    expect(outcome).toMatchObject({ paid: false });
    expect(succeeded(card.customerRef)).toHaveLength(0);
    await expect(provider.detachCard(card.ref)).resolves.toBeUndefined();
    await expect(provider.detachCard('pm_unknown123')).resolves.toBeUndefined();
  });

  it('a Stripe that cannot be reached throws UPSTREAM_ERROR (the caller tries again)', async () => {
    const card = await savedCard();
    const gone = await startLoopbackStripe({ accounts: [{ id: SELLER_ACCOUNT, chargesEnabled: true, detailsSubmitted: true }] });
    const unreachable = providerFor(gone);
    await gone.close();
    const attempt = unreachable.chargeSaved(chargeOf(card, key('charge')));
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' });
  });
});

describe('closing a pay page (a cancelled order) and refunding a payment', () => {
  const checkout = (orderId: string) =>
    provider.createCheckout({
      orderId,
      account: SELLER_ACCOUNT,
      amount: 999,
      currency: 'USD',
      productName: 'E-book',
      description: '',
      email: 'buyer@example.com',
      sellerName: 'Seller',
      successUrl: `http://shop.test/orders/${orderId}/return?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `http://shop.test/orders/${orderId}`,
      idempotencyKey: key('checkout'),
    });

  it('expires an open Checkout Session: it takes no card afterwards', async () => {
    const session = await checkout('order-open');
    expect(await provider.expireCheckout(session.id, SELLER_ACCOUNT)).toMatchObject({ status: 'expired', paid: false });
    expect(await stripe.pay(session.id, CARD.visa)).toBe('invalid');
    expect(stripe.money('order-open')).toEqual({ charged: 0, refunded: 0 });
  });

  it('answers a session paid already as paid (the caller refunds it); the refund with one key is made once', async () => {
    const session = await checkout('order-paid');
    expect(await stripe.pay(session.id, CARD.visa)).toBe('paid');
    const state = await provider.expireCheckout(session.id, SELLER_ACCOUNT);
    expect(state).toMatchObject({ status: 'complete', paid: true, amount: 999 });
    const refundKey = key('late-refund');
    await provider.refund(state!.paymentId!, SELLER_ACCOUNT, 999, refundKey);
    await provider.refund(state!.paymentId!, SELLER_ACCOUNT, 999, refundKey);
    expect(stripe.money('order-paid')).toEqual({ charged: 999, refunded: 999 });
  });

  it('answers null for a session Stripe does not know', async () => {
    expect(await provider.expireCheckout('cs_test_unknown', SELLER_ACCOUNT)).toBeNull();
  });
});
