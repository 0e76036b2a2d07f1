import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { AppError, type CommerceDomainEvent, type OrderState, type SendMailMessage } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import {
  IDEMPOTENCY_REFUSALS,
  requestFingerprint,
  type IdempotentCreate,
  type StoredAnswer,
  type TransactionManager,
} from '@tinkerdesk/persistence';
import type { CommerceEventRecord } from '../events/commerce-events.js';
import { CommerceReactions } from '../events/commerce-reactions.js';
import type { PendingMailRepository } from '../events/pending-mail.repository.js';
import type { IdentityDirectory } from '../notify/identity-directory.js';
import type { CheckoutRequest, CheckoutState, PaymentProvider, PaymentProviders } from '../payments/payment-provider.js';
import type { ProductRow, ProductsService } from '../products/products.service.js';
import type { ProviderServicesService, ServiceRow } from '../services/provider-services.service.js';
import type {
  LatePaymentRow,
  OrderChanges,
  OrderRow,
  OrdersRepository,
  OrdersTx,
  PaymentSessionRow,
  ReceiptRow,
  RefundRow,
  ReplyRow,
} from './orders.repository.js';
import { listedOf } from './listed-order.js';
import { refundAmountOf, refundIdOf, remainingOf } from './order-refunds.js';
import { OrdersService } from './orders.service.js';
import type { TimelineEntry, TimelineService } from '../timeline/timeline.service.js';
import { guardEachTest, inside, network } from '../../test/transaction-guard.js';

/**
 * The rules of OrdersService with its repositories, payment providers and identity faked. Every
 * flow runs under a guard: the fake provider and the fake identity (NATS) fail when they are called
 * while a transaction of the fake repository is open (no network call under a lock). Events the
 * service records are delivered after commit to the real reactions (timeline and mail), as the
 * outbox listeners do.
 */
guardEachTest();

const SELLER = '11111111-1111-4111-8111-111111111111';
const BUYER = '22222222-2222-4222-8222-222222222222';
const STRANGER = '33333333-3333-4333-8333-333333333333';
const SERVICE = '44444444-4444-4444-8444-444444444444';
const PRODUCT = '55555555-5555-4555-8555-555555555555';

/** The fake transaction's manager: only handed to the fake requests link, which never touches it. */
const NO_DATABASE = {} as TransactionManager;

class FakeOrders {
  orders = new Map<string, OrderRow>();
  receipts = new Map<string, ReceiptRow>();
  replyRows: ReplyRow[] = [];
  sessions = new Map<string, PaymentSessionRow>();
  events = new Set<string>();
  keys = new Map<string, { fingerprint: string; response: unknown }>();
  late = new Map<string, LatePaymentRow>();
  refundRows: RefundRow[] = [];
  requests = new Map<string, { id: string; state: 'accepted' | 'paid' | 'cancelled' }>();
  receiptSeq = 0;
  /** Events recorded in the outbox, delivered after their transaction commits. */
  delivered: CommerceDomainEvent[] = [];
  deliver: (event: CommerceDomainEvent) => Promise<void> = () => Promise.resolve();
  private pending: CommerceEventRecord[] = [];

  private tx: OrdersTx = {
    manager: NO_DATABASE,
    lockOrder: (id) => Promise.resolve(this.orders.get(id) ?? null),
    updateOrder: (id, changes: OrderChanges) => {
      const next = { ...(this.orders.get(id) as OrderRow), ...changes, modified: new Date() };
      this.orders.set(id, next);
      return Promise.resolve(next);
    },
    insertReceipt: (r) => {
      const row = { ...r, number: `R-2026-${String(++this.receiptSeq).padStart(6, '0')}` };
      this.receipts.set(r.orderId, row);
      return Promise.resolve(row);
    },
    openSession: (orderId) =>
      Promise.resolve([...this.sessions.values()].find((s) => s.orderId === orderId && s.status === 'open') ?? null),
    insertSession: (s) => {
      this.sessions.set(s.id, { ...s, created: new Date() });
      return Promise.resolve();
    },
    setSessionStatus: (id, status) => {
      const s = this.sessions.get(id);
      if (s) s.status = status;
      return Promise.resolve();
    },
    recordLatePayment: (p) => {
      const key = `${p.provider}:${p.paymentId}`;
      if (this.late.has(key)) return Promise.resolve(false);
      this.late.set(key, { ...p, state: 'refund_pending', attempts: 0, lastError: null, refundedAt: null, created: new Date() });
      return Promise.resolve(true);
    },
    markLateRefunded: (provider, paymentId) => this.markLateRefunded(provider, paymentId),
    insertReply: (reply) => this.insertReply(reply),
    // Idempotency-Keys are the real repository's (idempotency.int-spec): none here.
    once: async (_create, work) => ({ answer: await work(), replayed: false }),
    refundsOf: (orderId) => Promise.resolve(this.refundRows.filter((r) => r.orderId === orderId).map((r) => ({ ...r }))),
    insertRefund: (r) => {
      if (this.refundRows.some((x) => x.id === r.id)) return Promise.reject(new Error('duplicate refund id'));
      this.refundRows.push({ ...r, created: new Date() });
      return Promise.resolve();
    },
    releaseRefund: (id) => {
      this.refundRows = this.refundRows.filter((r) => !(r.id === id && r.state === 'pending'));
      return Promise.resolve();
    },
    finishRefund: (id, providerRefundId) => {
      const row = this.refundRows.find((r) => r.id === id && r.state === 'pending');
      if (!row) return Promise.resolve(null);
      Object.assign(row, { state: 'done', providerRefundId, refundedAt: new Date() });
      return Promise.resolve({ ...row });
    },
    record: (...events) => {
      this.pending.push(...events);
      return Promise.resolve();
    },
    claimEvent: (provider, id) => {
      const key = `${provider}:${id}`;
      if (this.events.has(key)) return Promise.resolve(false);
      this.events.add(key);
      return Promise.resolve(true);
    },
  };

  /** The requests link (RequestsService in the service): the requests' rows changed in the order's transaction. */
  requestLink = {
    idOf: (orderId: string) => Promise.resolve(this.requests.get(orderId)?.id ?? null),
    lockOf: (_m: TransactionManager, orderId: string) => this.inTx(() => this.requests.get(orderId) ?? null),
    markPaid: (_m: TransactionManager, orderId: string) => this.inTx(() => this.settle(orderId, 'paid')),
    cancelWith: (_m: TransactionManager, orderId: string) => this.inTx(() => this.settle(orderId, 'cancelled')),
  };

  private settle(orderId: string, to: 'paid' | 'cancelled'): void {
    const request = this.requests.get(orderId);
    if (request?.state === 'accepted') request.state = to;
  }

  /** Fails when the requests' rows would be changed outside the order's transaction. */
  private inTx<T>(work: () => T): Promise<T> {
    if (this.depth === 0) return Promise.reject(new Error('the request was changed outside the order transaction'));
    return Promise.resolve(work());
  }

  private depth = 0;

  async inTransaction<T>(work: (tx: OrdersTx) => Promise<T>): Promise<T> {
    let result: T;
    this.depth += 1;
    try {
      result = await inside(() => work(this.tx));
    } catch (error) {
      this.pending = [];
      throw error;
    } finally {
      this.depth -= 1;
    }
    await this.commit();
    return result;
  }

  /** Committed: the relay publishes, the listeners react. */
  private async commit(): Promise<void> {
    const committed = this.pending.splice(0);
    for (const record of committed) {
      const event = JSON.parse(JSON.stringify({ id: randomUUID(), createdAt: new Date().toISOString(), ...record })) as CommerceDomainEvent;
      this.delivered.push(event);
      await this.deliver(event);
    }
  }
  async insertOrder(
    order: Omit<
      OrderRow,
      'created' | 'modified' | 'failure' | 'paymentId' | 'fulfilNote' | 'paidAt' | 'fulfilledAt' | 'refundedAmount' | 'claimedBy'
    > & { claimedBy?: string | null },
    events: CommerceEventRecord[] = [],
  ) {
    const row: OrderRow = {
      ...order,
      refundedAmount: 0,
      claimedBy: order.claimedBy ?? null,
      failure: null,
      paymentId: null,
      fulfilNote: null,
      paidAt: null,
      fulfilledAt: null,
      created: new Date(),
      modified: new Date(),
    };
    await inside(() => {
      this.orders.set(row.id, row);
      this.pending.push(...events);
      return Promise.resolve();
    });
    await this.commit();
    return row;
  }
  claimByEmail = (_manager: unknown, userId: string, email: string) => {
    const unclaimed = [...this.orders.values()].filter((o) => o.buyerId === null && o.claimedBy === null && o.email === email);
    for (const o of unclaimed) this.orders.set(o.id, { ...o, claimedBy: userId });
    return Promise.resolve(unclaimed.length);
  };
  findOrder = (id: string) => Promise.resolve(this.orders.get(id) ?? null);
  findOrderByPayment = (paymentId: string) => Promise.resolve([...this.orders.values()].find((o) => o.paymentId === paymentId) ?? null);
  orderPage = () =>
    Promise.resolve({ orders: [...this.orders.values()].map(({ id, serviceId }) => ({ id, serviceId })), total: this.orders.size });
  listedOrders = (ids: readonly string[]) =>
    Promise.resolve(
      ids.flatMap((id) => {
        const order = this.orders.get(id);
        if (!order) return [];
        return [
          listedOf(
            order,
            this.receipts.get(order.id) ?? null,
            this.replyRows.filter((r) => r.orderId === order.id),
            this.refundRows.filter((r) => r.orderId === order.id && r.state === 'done'),
            [...this.late.values()].filter((l) => l.orderId === order.id),
          ),
        ];
      }),
    );
  receipt = (orderId: string) => Promise.resolve(this.receipts.get(orderId) ?? null);
  replies = (orderId: string) => Promise.resolve(this.replyRows.filter((r) => r.orderId === orderId));
  refunds = (orderId: string) => Promise.resolve(this.refundRows.filter((r) => r.orderId === orderId && r.state === 'done'));
  insertReply(reply: Omit<ReplyRow, 'created'>) {
    this.replyRows.push({ ...reply, created: new Date() });
    return Promise.resolve();
  }
  findSession = (id: string) => Promise.resolve(this.sessions.get(id) ?? null);
  openSessionOf = (orderId: string) =>
    Promise.resolve([...this.sessions.values()].find((s) => s.orderId === orderId && s.status === 'open') ?? null);
  latePayments = (orderId: string) => Promise.resolve([...this.late.values()].filter((l) => l.orderId === orderId));
  leaseLateRefunds = () => Promise.resolve([...this.late.values()].filter((l) => l.state === 'refund_pending'));
  markLateRefunded(provider: string, paymentId: string) {
    const row = this.late.get(`${provider}:${paymentId}`);
    if (!row || row.state !== 'refund_pending') return Promise.resolve(null);
    Object.assign(row, { state: 'refunded', refundedAt: new Date(), lastError: null });
    return Promise.resolve(row);
  }
  noteLateRefundError(provider: string, paymentId: string, error: string) {
    const row = this.late.get(`${provider}:${paymentId}`);
    if (row) row.lastError = error;
    return Promise.resolve();
  }
  /** IdempotencyKeys.outside without the database (and without the wait: a key still running is busy at once). */
  async outside<T extends StoredAnswer>(
    create: IdempotentCreate | undefined,
    work: () => Promise<T>,
  ): Promise<{ answer: T; replayed: boolean }> {
    if (create === undefined) return { answer: await work(), replayed: false };
    const id = `${create.scope}|${create.key}`;
    const fingerprint = requestFingerprint(create.request);
    const found = this.keys.get(id);
    if (found?.fingerprint !== undefined && found.fingerprint !== fingerprint)
      throw new AppError('CONFLICT', IDEMPOTENCY_REFUSALS.mismatch);
    if (found?.response === null) throw new AppError('CONFLICT', IDEMPOTENCY_REFUSALS.busy);
    if (found) return { answer: found.response as T, replayed: true };
    this.keys.set(id, { fingerprint, response: null });
    try {
      const answer = await work();
      this.keys.set(id, { fingerprint, response: JSON.parse(JSON.stringify(answer)) });
      return { answer, replayed: false };
    } catch (error) {
      this.keys.delete(id);
      throw error;
    }
  }
}

class FakeProvider implements PaymentProvider {
  readonly id = 'sandbox' as const;
  checkouts: CheckoutRequest[] = [];
  states = new Map<string, CheckoutState>();
  refunds: Array<{ paymentId: string; amount: number }> = [];
  refundKeys = new Map<string, string>();
  expired: string[] = [];
  failNextCheckout = false;
  failRefunds = 0;
  validateAccount = () => Promise.resolve({ provider: 'sandbox' as const, account: 'x', valid: true, reason: '' });
  createCheckout(request: CheckoutRequest) {
    network('createCheckout');
    if (this.failNextCheckout) {
      this.failNextCheckout = false;
      return Promise.reject(new AppError('UPSTREAM_ERROR', 'provider down'));
    }
    this.checkouts.push(request);
    const id = `sbs_${String(this.checkouts.length).padStart(20, '0')}`;
    this.states.set(id, {
      id,
      orderId: request.orderId,
      status: 'open',
      paid: false,
      amount: request.amount,
      paymentId: null,
      failure: null,
    });
    return Promise.resolve({ id, url: `http://shop.test/pay/sandbox/${id}` });
  }
  retrieveCheckout = (id: string) => {
    network('retrieveCheckout');
    return Promise.resolve(this.states.get(id) ?? null);
  };
  expireCheckout(id: string) {
    network('expireCheckout');
    this.expired.push(id);
    const s = this.states.get(id);
    if (s?.status === 'open') this.states.set(id, { ...s, status: 'expired' });
    return Promise.resolve(this.states.get(id) ?? null);
  }
  refund(paymentId: string, _account: string, amount: number, key: string) {
    network('refund');
    if (this.failRefunds > 0) {
      this.failRefunds -= 1;
      return Promise.reject(new AppError('UPSTREAM_ERROR', 'provider down'));
    }
    const before = this.refundKeys.get(key);
    if (before) return Promise.resolve({ id: before });
    this.refunds.push({ paymentId, amount });
    this.refundKeys.set(key, `re_${this.refunds.length}`);
    return Promise.resolve({ id: `re_${this.refunds.length}` });
  }
  // Saved cards are not the orders' business (plans use them: plan-scheduler.int-spec.ts).
  createSetup = () => Promise.reject(new Error('orders never save cards'));
  retrieveSetup = () => Promise.resolve(null);
  chargeSaved = () => Promise.reject(new Error('orders never charge saved cards'));
  detachCard = () => Promise.resolve();
  /** The provider took the money for this session. */
  pay(id: string, amount?: number) {
    const s = this.states.get(id) as CheckoutState;
    this.states.set(id, { ...s, status: 'complete', paid: true, paymentId: `pi_${id}`, amount: amount ?? s.amount });
  }
}

class FakeIdentity {
  mails: SendMailMessage[] = [];
  verified = new Map<string, string>();
  verifiedEmail = (userId: string) => {
    network('identity.verifiedEmail');
    return Promise.resolve(this.verified.get(userId) ?? null);
  };
  accountOf = (email: string) => {
    network('identity.accountOf');
    return Promise.resolve([...this.verified].find(([, address]) => address === email)?.[0] ?? null);
  };
  mail(message: SendMailMessage) {
    network('identity.mail');
    this.mails.push(message);
    return Promise.resolve();
  }
  send(message: SendMailMessage) {
    return this.mail(message);
  }
}

/** Records what would be written to the timeline. */
class FakeTimeline {
  entries: TimelineEntry[] = [];
  record(...entries: TimelineEntry[]) {
    this.entries.push(...entries.filter((e) => e.userId !== null));
    return Promise.resolve();
  }
  write(_manager: unknown, entries: TimelineEntry[]) {
    return this.record(...entries);
  }
}

const silent = { error: () => undefined, warn: () => undefined, info: () => undefined } as unknown as Logger;

function service(fields: Partial<ServiceRow> = {}): ServiceRow {
  return {
    id: SERVICE,
    userId: SELLER,
    name: 'Print shop',
    displayName: 'Ada',
    provider: 'sandbox',
    vendor: 'digital',
    account: 'sandbox_shop',
    extras: { supportEmail: 'help@shop.test' },
    created: new Date(),
    modified: new Date(),
    ...fields,
  };
}

function product(fields: Partial<ProductRow> = {}): ProductRow {
  return {
    id: PRODUCT,
    serviceId: SERVICE,
    userId: SELLER,
    name: 'Poster',
    description: 'A2',
    price: 1250,
    currency: 'USD',
    image: null,
    uploadedImage: null,
    active: true,
    shipping: null,
    created: new Date(),
    modified: new Date(),
    ...fields,
  };
}

function setup(options: { service?: Partial<ServiceRow>; product?: Partial<ProductRow> } = {}) {
  const orders = new FakeOrders();
  const provider = new FakeProvider();
  const identity = new FakeIdentity();
  const timeline = new FakeTimeline();
  const services = {
    find: (id: string) => Promise.resolve(id === SERVICE ? service(options.service) : null),
    findMany: (ids: string[]) => Promise.resolve(ids.includes(SERVICE) ? [service(options.service)] : []),
  };
  const products = { find: (id: string) => Promise.resolve(id === PRODUCT ? product(options.product) : null) };
  const sut = new OrdersService(
    orders as unknown as OrdersRepository,
    services as unknown as ProviderServicesService,
    products as unknown as ProductsService,
    { sandbox: provider, stripe: provider } as unknown as PaymentProviders,
    identity as unknown as IdentityDirectory,
    { publicUrl: 'http://shop.test' },
    silent,
  );
  sut.useRequests(orders.requestLink);
  const noPendingMail = { find: () => Promise.resolve(null), delete: () => Promise.resolve() };
  const reactions = new CommerceReactions(
    identity as unknown as IdentityDirectory,
    timeline as unknown as TimelineService,
    noPendingMail as unknown as PendingMailRepository,
    { publicUrl: 'http://shop.test' },
  );
  orders.deliver = async (event) => {
    await reactions.toTimeline(event, null);
    await reactions.toMail(event);
  };
  const place = (fields: Record<string, unknown> = {}) =>
    sut.create({ sellerId: SELLER, serviceId: SERVICE, product: PRODUCT, email: 'Buyer@Example.com', share: true, ...fields } as never);
  return { sut, orders, provider, identity, timeline, place };
}

async function refusal(work: Promise<unknown>): Promise<AppError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const MAIL = {
  service: 'USPS_PRIORITY',
  options: ['color'],
  address: { name: 'Grace', line1: '2 Elm', city: 'Boston', postalCode: '02110', country: 'US' },
};

describe('create', () => {
  it('refuses an unknown service, another seller’s, and a product of another service, as missing', async () => {
    const { place } = setup();
    expect((await refusal(place({ serviceId: STRANGER }))).code).toBe('NOT_FOUND');
    expect((await refusal(place({ sellerId: STRANGER }))).code).toBe('NOT_FOUND');
    const other = setup({ product: { serviceId: STRANGER } });
    expect((await refusal(other.place())).code).toBe('NOT_FOUND');
  });

  it('refuses an inactive product with CONFLICT', async () => {
    const { place } = setup({ product: { active: false } });
    expect((await refusal(place())).code).toBe('CONFLICT');
  });

  it('printed mail needs shipping the product offers; other goods take none', async () => {
    const mail = setup({ service: { vendor: 'mail' }, product: { shipping: { services: ['USPS_PRIORITY'], options: ['color'] } } });
    expect((await refusal(mail.place())).code).toBe('VALIDATION_FAILED');
    expect((await refusal(mail.place({ shipping: { ...MAIL, service: 'FEDEX_OVERNIGHT' } }))).detail).toMatch(/not offered/);
    expect((await refusal(mail.place({ shipping: { ...MAIL, options: ['flat'] } }))).detail).toMatch(/flat/);
    expect((await mail.place({ shipping: MAIL })).shipping).toEqual(MAIL);
    const digital = setup();
    expect((await refusal(digital.place({ shipping: MAIL }))).code).toBe('VALIDATION_FAILED');
  });

  it('snapshots the product’s name and price; the email is kept in lower case', async () => {
    const { place } = setup();
    const order = await place();
    expect(order).toMatchObject({ state: 'pending', amount: 1250, email: 'buyer@example.com', role: 'visitor' });
    expect(order.items).toEqual([
      { productId: PRODUCT, name: 'Poster', description: 'A2', unitPrice: 1250, quantity: 1, amount: 1250, image: null },
    ]);
  });

  it('keeps the product’s image on the item: its https URL, or the path of its current uploaded image', async () => {
    const linked = setup({ product: { image: 'https://img.example/poster.jpg' } });
    expect((await linked.place()).items[0]!.image).toBe('https://img.example/poster.jpg');
    const size = { width: 10, height: 10 };
    const uploaded = setup({
      product: { uploadedImage: { version: '0123456789abcdef', sizes: { small: size, medium: size, large: size } } },
    });
    expect((await uploaded.place()).items[0]!.image).toBe(`/v1/products/${PRODUCT}/image/small`);
  });
});

describe('get (who sees an order)', () => {
  it('an order placed signed in is its buyer’s and seller’s only', async () => {
    const { sut, place } = setup();
    const order = await place({ buyerId: BUYER });
    expect((await refusal(sut.get(order.id, undefined))).code).toBe('NOT_FOUND');
    expect((await refusal(sut.get(order.id, STRANGER))).code).toBe('NOT_FOUND');
    expect((await sut.get(order.id, BUYER)).role).toBe('buyer');
    expect((await sut.get(order.id, SELLER)).role).toBe('seller');
  });

  it('an order placed signed out is reached by its id; the seller sees the email only when shared', async () => {
    const { sut, place } = setup();
    const shared = await place();
    const hidden = await place({ share: false });
    expect((await sut.get(shared.id, undefined)).role).toBe('visitor');
    expect((await sut.get(shared.id, SELLER)).email).toBe('buyer@example.com');
    expect((await sut.get(hidden.id, SELLER)).email).toBeNull();
    expect((await sut.get(hidden.id, undefined)).email).toBe('buyer@example.com');
  });

  it('the seller’s receipt carries the buyer’s address only when shared', async () => {
    const { sut, place } = setup();
    for (const share of [false, true]) {
      const order = await place({ share });
      const { sessionId } = await sut.pay({ orderId: order.id });
      await sut.applyPaid(order.id, { sessionId, paymentId: `pi_${share}`, amount: 1250 });
      expect((await sut.get(order.id, SELLER)).receipt?.email).toBe(share ? 'buyer@example.com' : null);
      expect((await sut.get(order.id, undefined)).receipt?.email).toBe('buyer@example.com');
      const listed = await sut.list({ viewerId: SELLER, role: 'seller', receipts: 'true' } as never);
      expect(listed.orders.find((o) => o.id === order.id)?.receipt?.email).toBe(share ? 'buyer@example.com' : null);
    }
  });

  it('messages are read by the seller and the buyer only: a visitor holding the link gets none', async () => {
    const { sut, place, identity } = setup();
    const order = await place();
    identity.verified.set(BUYER, 'buyer@example.com');
    await sut.reply(order.id, BUYER, 'Is it A2?');
    expect((await sut.get(order.id, undefined)).replies).toEqual([]);
    expect((await sut.get(order.id, STRANGER)).replies).toEqual([]);
    expect(await sut.get(order.id, BUYER)).toMatchObject({ role: 'buyer', replies: [{ from: 'buyer', note: 'Is it A2?' }] });
    expect((await sut.get(order.id, SELLER)).replies).toHaveLength(1);
  });
});

describe('guest orders belong to the account that verifies their address', () => {
  it('an unverified account never gets a guest order: it is a visitor, and claims nothing', async () => {
    const { sut, place } = setup();
    const order = await place();
    expect(await sut.get(order.id, STRANGER)).toMatchObject({ role: 'visitor', replies: [] });
    expect((await refusal(sut.reply(order.id, STRANGER, 'Mine?'))).code).toBe('NOT_FOUND');
  });

  it('placed signed out with an address already verified: the account is its buyer at once, the link still works', async () => {
    const { sut, place, identity } = setup();
    identity.verified.set(BUYER, 'buyer@example.com');
    const order = await place({ email: 'Buyer@Example.com' });
    expect((await sut.get(order.id, BUYER)).role).toBe('buyer');
    expect((await sut.get(order.id, undefined)).role).toBe('visitor');
    expect((await sut.get(order.id, STRANGER)).role).toBe('visitor');
  });

  it('verified later: the claim makes the account its buyer (even once its address changes), once', async () => {
    const { sut, orders, place, identity } = setup();
    const order = await place();
    const mine = await place({ buyerId: STRANGER });
    expect(await sut.claimByEmail(null as never, BUYER, 'buyer@example.com')).toBe(1);
    expect(await sut.claimByEmail(null as never, BUYER, 'buyer@example.com')).toBe(0);
    expect(orders.orders.get(order.id)?.claimedBy).toBe(BUYER);
    expect(orders.orders.get(mine.id)?.claimedBy).toBeNull();
    identity.verified.set(BUYER, 'another@example.com');
    await sut.reply(order.id, BUYER, 'Is it A2?');
    expect(await sut.get(order.id, BUYER)).toMatchObject({ role: 'buyer', replies: [{ from: 'buyer', note: 'Is it A2?' }] });
  });
});

describe('pay', () => {
  it.each<OrderState>(['paid', 'fulfilled', 'cancelled', 'refunded'])('refuses a %s order with CONFLICT', async (state) => {
    const { sut, orders, place } = setup();
    const order = await place();
    orders.orders.set(order.id, { ...(orders.orders.get(order.id) as OrderRow), state });
    expect((await refusal(sut.pay({ orderId: order.id }))).code).toBe('CONFLICT');
  });

  it('opens a checkout returning to the order, and answers the open one again', async () => {
    const { sut, provider, place } = setup();
    const order = await place();
    const first = await sut.pay({ orderId: order.id });
    expect(provider.checkouts[0]).toMatchObject({
      amount: 1250,
      account: 'sandbox_shop',
      successUrl: `http://shop.test/orders/${order.id}/return?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `http://shop.test/orders/${order.id}`,
    });
    expect(await sut.pay({ orderId: order.id })).toEqual(first);
    expect(provider.checkouts).toHaveLength(1);
  });

  it('an expired session is closed and a new one made', async () => {
    const { sut, provider, orders, place } = setup();
    const order = await place();
    const first = await sut.pay({ orderId: order.id });
    provider.states.set(first.sessionId, { ...(provider.states.get(first.sessionId) as CheckoutState), status: 'expired' });
    const second = await sut.pay({ orderId: order.id });
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(orders.sessions.get(first.sessionId)?.status).toBe('expired');
  });

  it('an Idempotency-Key answers the stored answer; another request under it, or one still running, is a CONFLICT', async () => {
    const { sut, provider, orders, place } = setup();
    const order = await place();
    const first = await sut.pay({ orderId: order.id, idempotencyKey: 'k' });
    provider.states.set(first.sessionId, { ...(provider.states.get(first.sessionId) as CheckoutState), status: 'expired' });
    expect(await sut.pay({ orderId: order.id, idempotencyKey: 'k' })).toEqual(first);
    expect(provider.checkouts).toHaveLength(1);
    expect((await refusal(sut.pay({ orderId: order.id, idempotencyKey: 'k', viewerId: SELLER }))).detail).toMatch(/different request/);
    orders.keys.set(`pay:${order.id}|busy`, {
      fingerprint: (orders.keys.get(`pay:${order.id}|k`) as { fingerprint: string }).fingerprint,
      response: null,
    });
    expect((await refusal(sut.pay({ orderId: order.id, idempotencyKey: 'busy' }))).detail).toMatch(/still being processed/);
  });

  it('a failure releases the key, so a retry runs', async () => {
    const { sut, provider, place } = setup();
    const order = await place();
    provider.failNextCheckout = true;
    expect((await refusal(sut.pay({ orderId: order.id, idempotencyKey: 'retry' }))).code).toBe('UPSTREAM_ERROR');
    expect((await sut.pay({ orderId: order.id, idempotencyKey: 'retry' })).sessionId).toMatch(/^sbs_/);
  });
});

describe('complete', () => {
  it('refuses another order’s session and a session the provider ties to another order', async () => {
    const { sut, provider, place } = setup();
    const a = await place();
    const b = await place();
    const sessionB = (await sut.pay({ orderId: b.id })).sessionId;
    expect((await refusal(sut.complete({ orderId: a.id, sessionId: sessionB }))).code).toBe('NOT_FOUND');
    const sessionA = (await sut.pay({ orderId: a.id })).sessionId;
    provider.states.set(sessionA, { ...(provider.states.get(sessionA) as CheckoutState), orderId: b.id });
    expect((await refusal(sut.complete({ orderId: a.id, sessionId: sessionA }))).code).toBe('NOT_FOUND');
  });

  it('a paid session marks the order paid with one receipt and two mails, however often it is completed', async () => {
    const { sut, provider, identity, orders, timeline, place } = setup();
    const order = await place({ note: 'Roll it' });
    const { sessionId } = await sut.pay({ orderId: order.id });
    expect((await sut.complete({ orderId: order.id, sessionId })).state).toBe('pending');
    provider.pay(sessionId);
    const paid = await sut.complete({ orderId: order.id, sessionId });
    expect(paid).toMatchObject({ state: 'paid', receipt: { number: 'R-2026-000001', amount: 1250 } });
    expect(timeline.entries.map((e) => [e.kind, e.userId])).toEqual([
      ['order.received', SELLER],
      ['order.sold', SELLER],
    ]);
    await sut.complete({ orderId: order.id, sessionId });
    expect(orders.receipts.size).toBe(1);
    expect(identity.mails).toHaveLength(2);
    expect(identity.mails[0]).toMatchObject({ to: 'buyer@example.com', subject: 'Your receipt R-2026-000001 from Ada' });
    expect(identity.mails[1]).toMatchObject({ toUserId: SELLER, replyTo: 'buyer@example.com' });
    expect(identity.mails[1]?.text).toContain('Roll it');
  });
});

describe('applyPaid and applyEvent', () => {
  async function opened(setupResult: ReturnType<typeof setup>, fields: Record<string, unknown> = {}) {
    const order = await setupResult.place(fields);
    const { sessionId } = await setupResult.sut.pay({ orderId: order.id });
    return { order, sessionId };
  }

  it('applies an event once: a replay changes nothing', async () => {
    const s = setup();
    const { order, sessionId } = await opened(s);
    const event = { provider: 'stripe' as const, id: 'evt_1', type: 'paid' };
    expect(await s.sut.applyPaid(order.id, { sessionId, paymentId: 'pi_1', amount: 1250, event })).toBe(true);
    expect(await s.sut.applyPaid(order.id, { sessionId, paymentId: 'pi_1', amount: 1250, event })).toBe(false);
    expect(s.orders.receipts.size).toBe(1);
  });

  it('never applies a payment of the wrong amount, or one for a cancelled order', async () => {
    const s = setup();
    const { order, sessionId } = await opened(s);
    expect(await s.sut.applyPaid(order.id, { sessionId, paymentId: 'pi', amount: 1 })).toBe(false);
    await s.sut.cancel(order.id, undefined);
    expect(await s.sut.applyPaid(order.id, { sessionId, paymentId: 'pi', amount: 1250 })).toBe(false);
    expect(s.orders.orders.get(order.id)?.state).toBe('cancelled');
    expect(s.orders.receipts.size).toBe(0);
  });

  it('a payment that comes after the cancel is refunded automatically, once, and both sides are told', async () => {
    const s = setup();
    const order = await s.place({ buyerId: BUYER });
    const { sessionId } = await s.sut.pay({ orderId: order.id, viewerId: BUYER });
    await s.sut.cancel(order.id, BUYER);
    expect(s.provider.expired).toEqual([sessionId]);
    const event = { provider: 'sandbox' as const, id: 'late-1', type: 'paid' };
    expect(await s.sut.applyPaid(order.id, { sessionId, paymentId: 'pi_late', amount: 1250, event })).toBe(false);
    expect(await s.sut.applyPaid(order.id, { sessionId, paymentId: 'pi_late', amount: 1250 })).toBe(false);
    expect(s.provider.refunds).toEqual([{ paymentId: 'pi_late', amount: 1250 }]);
    expect((await s.sut.get(order.id, SELLER)).latePayments).toMatchObject([{ amount: 1250, state: 'refunded' }]);
    expect(s.timeline.entries.filter((e) => e.kind === 'order.late_refund').map((e) => e.userId)).toEqual([BUYER, SELLER]);
    expect(s.identity.mails.filter((m) => /refunded/.test(m.subject)).map((m) => m.toUserId)).toEqual([BUYER, SELLER]);
  });

  it('a cancel that finds the pay page paid already refunds that payment; a refused refund is retried', async () => {
    const s = setup();
    const { order, sessionId } = await opened(s);
    s.provider.pay(sessionId);
    s.provider.failRefunds = 1;
    await s.sut.cancel(order.id, undefined);
    expect(s.provider.refunds).toEqual([]);
    expect((await s.sut.get(order.id, undefined)).latePayments).toMatchObject([{ state: 'refund_pending' }]);
    expect(await s.sut.retryLateRefunds()).toBe(1);
    expect(s.provider.refunds).toEqual([{ paymentId: `pi_${sessionId}`, amount: 1250 }]);
    expect(await s.sut.retryLateRefunds()).toBe(0);
    expect((await s.sut.get(order.id, undefined)).state).toBe('cancelled');
  });

  it('cancelling for a withdrawn request refuses a paid order (refund it instead) and withdraws an unpaid one', async () => {
    const s = setup();
    const { order, sessionId } = await opened(s);
    s.orders.requests.set(order.id, { id: 'req', state: 'accepted' });
    expect((await refusal(s.sut.cancelForRequest(order.id, STRANGER))).code).toBe('NOT_FOUND');
    await s.sut.cancelForRequest(order.id, SELLER);
    expect(s.orders.orders.get(order.id)?.state).toBe('cancelled');
    expect(s.orders.requests.get(order.id)?.state).toBe('cancelled');
    const paid = await opened(s);
    s.orders.requests.set(paid.order.id, { id: 'req2', state: 'accepted' });
    await s.sut.applyPaid(paid.order.id, { sessionId: paid.sessionId, paymentId: 'pi_2', amount: 1250 });
    const refused = await refusal(s.sut.cancelForRequest(paid.order.id, SELLER));
    expect(refused.code).toBe('CONFLICT');
    expect(refused.detail).toMatch(/refund the order instead/);
    expect(sessionId).toBeDefined();
  });

  it('a failed order may still be paid', async () => {
    const s = setup();
    const { order, sessionId } = await opened(s);
    await s.sut.applyFailed(order.id, 'Your card was declined.');
    expect(s.orders.orders.get(order.id)).toMatchObject({ state: 'failed', failure: 'Your card was declined.' });
    await s.sut.applyPaid(order.id, { sessionId, paymentId: 'pi', amount: 1250 });
    expect(s.orders.orders.get(order.id)).toMatchObject({ state: 'paid', failure: null });
  });

  it('a refund event records what the order does not know of (made at the provider); another account’s changes nothing', async () => {
    const s = setup();
    const { order, sessionId } = await opened(s);
    await s.sut.applyPaid(order.id, { sessionId, paymentId: 'pi_9', amount: 1250 });
    const told = (eventId: string, account: string, amountRefunded: number) =>
      s.sut.applyEvent('stripe', { kind: 'refunded', eventId, account, paymentId: 'pi_9', amountRefunded });
    expect(await told('e1', 'sandbox_shop', 500)).toBe(true);
    expect(s.orders.orders.get(order.id)).toMatchObject({ state: 'paid', refundedAmount: 500 });
    expect(await told('e2', 'acct_other', 1250)).toBe(false);
    expect(await told('e1', 'sandbox_shop', 1250)).toBe(false);
    expect(s.orders.orders.get(order.id)?.state).toBe('paid');
    expect(await told('e3', 'sandbox_shop', 1250)).toBe(true);
    expect(s.orders.orders.get(order.id)).toMatchObject({ state: 'refunded', refundedAmount: 1250 });
    expect(s.orders.refundRows.map((r) => r.amount)).toEqual([500, 750]);
  });

  it('a paid event for a session of another account is not applied', async () => {
    const s = setup();
    const { order, sessionId } = await opened(s);
    const event = {
      kind: 'paid' as const,
      eventId: 'e',
      account: 'acct_other',
      sessionId,
      orderId: order.id,
      paymentId: 'pi',
      amount: 1250,
    };
    expect(await s.sut.applyEvent('stripe', event)).toBe(false);
    expect(s.orders.orders.get(order.id)?.state).toBe('pending');
  });
});

describe('reply', () => {
  it('refuses a stranger as for a missing order', async () => {
    const { sut, place } = setup();
    const order = await place({ buyerId: BUYER });
    expect((await refusal(sut.reply(order.id, STRANGER, 'hi'))).code).toBe('NOT_FOUND');
  });

  it('the buyer’s message goes to the seller (reply-to only when shared); the seller’s to the buyer', async () => {
    const { sut, identity, place } = setup();
    const order = await place({ buyerId: BUYER, share: false });
    await sut.reply(order.id, BUYER, 'When?');
    expect(identity.mails.at(-1)).toMatchObject({ toUserId: SELLER });
    expect(identity.mails.at(-1)).not.toHaveProperty('replyTo');
    const view = await sut.reply(order.id, SELLER, 'Tomorrow');
    expect(identity.mails.at(-1)).toMatchObject({ toUserId: BUYER });
    expect(view.replies.map((r) => [r.from, r.note])).toEqual([
      ['buyer', 'When?'],
      ['seller', 'Tomorrow'],
    ]);
  });

  it('on an order placed signed out, the account with that verified email is the buyer', async () => {
    const { sut, identity, place } = setup();
    const order = await place();
    expect((await refusal(sut.reply(order.id, STRANGER, 'mine?'))).code).toBe('NOT_FOUND');
    identity.verified.set(STRANGER, 'buyer@example.com');
    expect((await sut.reply(order.id, STRANGER, 'mine!')).role).toBe('buyer');
  });
});

describe('fulfilment and refunds', () => {
  it('only the seller sees what to deliver, with the buyer’s contact only when shared', async () => {
    const { sut, place } = setup();
    const shared = await place();
    const hidden = await place({ share: false });
    expect((await refusal(sut.fulfillment(shared.id, BUYER, 'UTC'))).code).toBe('NOT_FOUND');
    expect((await sut.fulfillment(shared.id, SELLER, 'UTC')).buyer).toEqual({ email: 'buyer@example.com', name: null });
    expect((await sut.fulfillment(hidden.id, SELLER, 'UTC')).buyer).toBeNull();
    expect((await sut.fulfillment(hidden.id, SELLER, 'UTC')).canFulfil).toBe(false);
  });

  it('fulfils a paid order (not a pending one), then refunds it in full through the provider', async () => {
    const { sut, provider, identity, place } = setup();
    const order = await place();
    expect((await refusal(sut.fulfil(order.id, SELLER, undefined))).code).toBe('CONFLICT');
    const { sessionId } = await sut.pay({ orderId: order.id });
    provider.pay(sessionId);
    await sut.complete({ orderId: order.id, sessionId });
    expect((await refusal(sut.fulfil(order.id, BUYER, undefined))).code).toBe('NOT_FOUND');
    expect((await sut.fulfil(order.id, SELLER, ' Tracking 1Z ')).state).toBe('fulfilled');
    expect(identity.mails.at(-1)?.text).toContain('Tracking 1Z');
    expect((await refusal(sut.refund({ orderId: order.id, viewerId: BUYER }))).code).toBe('NOT_FOUND');
    expect((await sut.refund({ orderId: order.id, viewerId: SELLER })).state).toBe('refunded');
    expect(provider.refunds).toEqual([{ paymentId: `pi_${sessionId}`, amount: 1250 }]);
    expect(identity.mails.at(-1)?.subject).toMatch(/^Refund/);
  });
});

describe('partial refunds', () => {
  async function paidOrder(s: ReturnType<typeof setup>) {
    const order = await s.place({ buyerId: BUYER });
    const { sessionId } = await s.sut.pay({ orderId: order.id, viewerId: BUYER });
    s.provider.pay(sessionId);
    await s.sut.complete({ orderId: order.id, sessionId, viewerId: BUYER });
    return order;
  }

  it('refunds in parts until all of it: amounts, state, rows, timeline (negative) and emails', async () => {
    const s = setup();
    const order = await paidOrder(s);
    const first = await s.sut.refund({ orderId: order.id, viewerId: SELLER, amount: 500, reason: ' Late delivery ' });
    expect(first).toMatchObject({ state: 'paid', refundedAmount: 500, refunds: [{ amount: 500, reason: 'Late delivery' }] });
    expect(s.identity.mails.at(-1)?.text).toContain('The seller refunded $5.00 of your payment of $12.50.');
    expect(s.identity.mails.at(-1)?.text).toContain('Refunded so far: $5.00 of $12.50.');
    expect(s.identity.mails.at(-1)?.text).toContain("The seller's reason: Late delivery");
    expect(s.identity.mails.at(-1)?.text).toMatch(/Your receipt R-2026-\d{6} shows the refund: http:\/\/shop.test\//);
    const rest = await s.sut.refund({ orderId: order.id, viewerId: SELLER });
    expect(rest).toMatchObject({ state: 'refunded', refundedAmount: 1250 });
    expect(rest.refunds.map((r) => r.amount)).toEqual([500, 750]);
    expect(s.provider.refunds.map((r) => r.amount)).toEqual([500, 750]);
    expect(s.identity.mails.at(-1)?.text).toContain('The seller refunded $7.50 of your payment of $12.50: it is now refunded in full.');
    const refunds = s.timeline.entries.filter((e) => e.kind === 'order.refunded');
    expect(refunds.map((e) => [e.userId, e.amount, e.title])).toEqual([
      [BUYER, -500, 'Refunded $5.00 of $12.50 for Poster'],
      [SELLER, -500, 'Refunded $5.00 of $12.50 for Poster'],
      [BUYER, -750, 'Refunded $7.50 of $12.50 for Poster'],
      [SELLER, -750, 'Refunded $7.50 of $12.50 for Poster'],
    ]);
    const nothing = await refusal(s.sut.refund({ orderId: order.id, viewerId: SELLER, amount: 1 }));
    expect([nothing.code, nothing.detail]).toEqual(['CONFLICT', 'this order cannot be refunded: it was refunded']);
  });

  it('refuses an amount of 0, more than remains or not whole cents on the field, and refunds nothing', async () => {
    const s = setup();
    const order = await paidOrder(s);
    await s.sut.refund({ orderId: order.id, viewerId: SELLER, amount: 1000 });
    const tooMuch = await refusal(s.sut.refund({ orderId: order.id, viewerId: SELLER, amount: 251 }));
    expect([tooMuch.code, tooMuch.detail]).toEqual([
      'VALIDATION_FAILED',
      'amount may be at most 250 cents ($2.50), what remains to refund',
    ]);
    expect((await refusal(s.sut.refund({ orderId: order.id, viewerId: SELLER, amount: 0 }))).detail).toBe('amount must be more than 0');
    expect((await refusal(s.sut.refund({ orderId: order.id, viewerId: SELLER, amount: 2.5 }))).detail).toBe(
      'amount must be a whole number of cents',
    );
    expect(s.provider.refunds.map((r) => r.amount)).toEqual([1000]);
    expect(s.orders.orders.get(order.id)).toMatchObject({ state: 'paid', refundedAmount: 1000 });
  });

  it('a refund the provider refused releases its amount; a retry under the same key refunds once, another key twice', async () => {
    const s = setup();
    const order = await paidOrder(s);
    s.provider.failRefunds = 1;
    expect((await refusal(s.sut.refund({ orderId: order.id, viewerId: SELLER, amount: 400, idempotencyKey: 'k1' }))).code).toBe(
      'UPSTREAM_ERROR',
    );
    expect(s.orders.refundRows).toEqual([]);
    await s.sut.refund({ orderId: order.id, viewerId: SELLER, amount: 400, idempotencyKey: 'k1' });
    await s.sut.refund({ orderId: order.id, viewerId: SELLER, amount: 400, idempotencyKey: 'k1' });
    expect((await refusal(s.sut.refund({ orderId: order.id, viewerId: SELLER, amount: 300, idempotencyKey: 'k1' }))).code).toBe('CONFLICT');
    await s.sut.refund({ orderId: order.id, viewerId: SELLER, amount: 400, idempotencyKey: 'k2' });
    expect(s.provider.refunds.map((r) => r.amount)).toEqual([400, 400]);
    expect(s.orders.orders.get(order.id)?.refundedAmount).toBe(800);
    // The provider's event of these refunds adds nothing: the order knows them.
    const paymentId = s.orders.orders.get(order.id)?.paymentId as string;
    expect(
      await s.sut.applyEvent('stripe', { kind: 'refunded', eventId: 'e', account: 'sandbox_shop', paymentId, amountRefunded: 800 }),
    ).toBe(false);
    expect(s.orders.refundRows).toHaveLength(2);
  });

  it('a refund reserved under a key whose request died (the key taken over) is resumed: the provider asked once under its key, counted once', async () => {
    const s = setup();
    const order = await paidOrder(s);
    const id = refundIdOf(order.id, 'died');
    await s.orders.inTransaction((tx) =>
      tx.insertRefund({ id, orderId: order.id, amount: 400, reason: null, state: 'pending', providerRefundId: null, refundedAt: null }),
    );
    await s.sut.refund({ orderId: order.id, viewerId: SELLER, amount: 400, idempotencyKey: 'died' });
    expect(s.provider.refunds.map((r) => r.amount)).toEqual([400]);
    expect(s.orders.refundRows.map((r) => [r.id, r.state])).toEqual([[id, 'done']]);
    expect(s.orders.orders.get(order.id)?.refundedAmount).toBe(400);
  });

  it('pending refunds reserve their amount: what remains is counted with them', () => {
    expect(
      remainingOf({ amount: 1250, refundedAmount: 500 }, [
        { amount: 500, state: 'done' },
        { amount: 300, state: 'pending' },
      ]),
    ).toBe(450);
    expect(refundAmountOf(450, undefined, true)).toBe(450);
    expect(() => refundAmountOf(0, 1, true)).toThrow(/being made right now/);
    expect(() => refundAmountOf(0, undefined, false)).toThrow(/nothing left to refund/);
  });
});
