import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { COMMERCE_EVENTS, type RequestState, type SendMailMessage } from '@tinkerdesk/contracts';
import type { CommerceEventRecord } from '../events/commerce-events.js';
import type { IdentityDirectory } from '../notify/identity-directory.js';
import type { OrdersService, OrdersSettings } from '../orders/orders.service.js';
import type { ProductsService } from '../products/products.service.js';
import type { ProviderServicesService } from '../services/provider-services.service.js';
import type { RequestRow, RequestsRepository } from './requests.repository.js';
import { RequestsService } from './requests.service.js';
import { guardEachTest, inside, network } from '../../test/transaction-guard.js';

/**
 * The answers to a payment request with its repository, orders and identity faked, under the guard
 * of orders.service.spec.ts: identity (NATS) fails when called while the request's row is locked or
 * a transaction of the fake repository is open; a decline records its event with the move.
 */
const SELLER = '11111111-1111-4111-8111-111111111111';
const PAYER = '22222222-2222-4222-8222-222222222222';
const KEY = 'the-key';
guardEachTest();

type Fields = { orderId?: string; payerId?: string | null; declineReason?: string | null };

class FakeRequests {
  row: RequestRow = {
    id: 'req-1',
    sellerId: SELLER,
    serviceId: 'svc-1',
    productId: 'prod-1',
    product: { id: 'prod-1', name: 'Poster', description: '', price: 1500, currency: 'USD' },
    email: 'payer@example.com',
    note: '',
    keyHash: createHash('sha256').update(KEY).digest('hex'),
    payerId: null,
    state: 'open',
    orderId: null,
    declineReason: null,
    expires: new Date(Date.now() + 86_400_000),
    created: new Date(),
    modified: new Date(),
  };
  events: CommerceEventRecord[] = [];

  find = () => Promise.resolve({ ...this.row });

  insert(
    row: Omit<RequestRow, 'created' | 'modified' | 'state' | 'orderId' | 'declineReason'>,
    events: CommerceEventRecord[] = [],
  ): Promise<RequestRow> {
    return inside(() => {
      this.row = { ...row, state: 'open', orderId: null, declineReason: null, created: new Date(), modified: new Date() };
      this.events.push(...events);
      return Promise.resolve({ ...this.row });
    });
  }

  private set(to: RequestState, fields: Fields): RequestRow {
    this.row = {
      ...this.row,
      state: to,
      orderId: fields.orderId ?? this.row.orderId,
      payerId: fields.payerId ?? this.row.payerId,
      declineReason: fields.declineReason ?? this.row.declineReason,
    };
    return { ...this.row };
  }

  move(
    _id: string,
    from: RequestState,
    to: RequestState,
    fields: Fields = {},
    events: CommerceEventRecord[] = [],
  ): Promise<RequestRow | null> {
    return inside(() => {
      if (this.row.state !== from) return Promise.resolve(null);
      this.events.push(...events);
      return Promise.resolve(this.set(to, fields));
    });
  }

  locked<T>(
    _id: string,
    work: (row: RequestRow, move: (to: RequestState, fields?: Fields, events?: CommerceEventRecord[]) => Promise<RequestRow>) => Promise<T>,
  ): Promise<T> {
    return inside(() =>
      work({ ...this.row }, (to, fields = {}, events = []) => {
        this.events.push(...events);
        return Promise.resolve(this.set(to, fields));
      }),
    );
  }
}

class FakeIdentity {
  mails: SendMailMessage[] = [];
  verifiedEmail = () => {
    network('identity.verifiedEmail');
    return Promise.resolve(null);
  };
  accountOf = () => {
    network('identity.accountOf');
    return Promise.resolve(PAYER);
  };
  mail(message: SendMailMessage) {
    network('identity.mail');
    this.mails.push(message);
    return Promise.resolve();
  }
}

function setup() {
  const requests = new FakeRequests();
  const identity = new FakeIdentity();
  const placed: { how: 'product' | 'custom'; input: unknown; item: unknown }[] = [];
  const orders = {
    // Placing the order runs under the request's lock: database work only (its own guard is orders.service.spec.ts).
    create: (input: unknown, item: unknown) => (placed.push({ how: 'product', input, item }), Promise.resolve({ id: 'order-1' })),
    createCustom: (input: unknown, item: unknown) => (placed.push({ how: 'custom', input, item }), Promise.resolve({ id: 'order-1' })),
  };
  const service = { id: 'svc-1', userId: SELLER, name: 'Print shop', displayName: 'Ada', vendor: 'digital' };
  const sut = new RequestsService(
    requests as unknown as RequestsRepository,
    { find: () => Promise.resolve(service) } as unknown as ProviderServicesService,
    {
      find: () => Promise.resolve({ id: 'prod-1', serviceId: 'svc-1', name: 'Poster', description: '', price: 1500, active: true }),
    } as unknown as ProductsService,
    orders as unknown as OrdersService,
    identity as unknown as IdentityDirectory,
    { publicUrl: 'http://shop.test' } as OrdersSettings,
  );
  return { sut, requests, identity, placed, service };
}

/** The event recorded about the fake's request 'req-1': its snapshot and `more` of the payload. */
const toldAbout = (name: string, more: Record<string, unknown>) => ({
  name,
  aggregateType: 'request',
  aggregateId: 'req-1',
  payload: { request: { id: 'req-1', sellerId: SELLER, email: 'payer@example.com', productName: 'Poster', price: 1500 }, ...more },
});

describe('create', () => {
  it('records commerce.request.sent with the row; its email (the secret link) goes beside the event, not in it', async () => {
    const { sut, requests, identity } = setup();
    const view = await sut.create({ sellerId: SELLER, service: 'svc-1', product: 'prod-1', email: 'Payer@Example.com', note: ' Thanks ' });
    expect(requests.events).toHaveLength(1);
    const [sent] = requests.events;
    expect(sent).toMatchObject({
      name: COMMERCE_EVENTS.requestSent,
      aggregateType: 'request',
      aggregateId: view.id,
      payload: {
        request: { id: view.id, sellerId: SELLER, email: 'payer@example.com', productName: 'Poster', price: 1500 },
        payerId: PAYER,
        from: 'Ada',
      },
    });
    const link = /http:\/\/shop\.test\/\S+/.exec(sent!.secretMail?.text ?? '')?.[0] ?? '';
    expect(link).toContain(view.id);
    expect(sent!.secretMail).toMatchObject({ to: 'payer@example.com', subject: 'Ada asks you to pay $15.00 for Poster' });
    expect(sent!.secretMail?.text).toContain('\n\nThanks\n\n');
    // The key (the link's secret) is nowhere in what the stream carries.
    const key = new URL(link).searchParams.get('key') ?? link.split('/').pop() ?? '';
    expect(key.length).toBeGreaterThan(20);
    expect(JSON.stringify(sent!.payload)).not.toContain(key);
    expect(identity.mails).toEqual([]);
  });
});

describe('a custom amount (no product)', () => {
  const custom = { sellerId: SELLER, service: 'svc-1', email: 'payer@example.com', amount: 12_550, description: ' Consulting hour ' };

  it('asks the amount for the description: the row, the event and the email name it', async () => {
    const { sut, requests } = setup();
    const view = await sut.create(custom);
    expect(view.product).toEqual({ id: null, name: 'Consulting hour', description: '', price: 12_550, currency: 'USD' });
    expect(requests.row.productId).toBeNull();
    const [sent] = requests.events;
    expect(sent!.payload).toMatchObject({ request: { productName: 'Consulting hour', price: 12_550 } });
    expect(sent!.secretMail).toMatchObject({ subject: 'Ada asks you to pay $125.50 for Consulting hour' });
  });

  it('refuses a product with an amount, a missing description, and printed mail (which ships a product)', async () => {
    const { sut, service } = setup();
    await expect(sut.create({ ...custom, product: 'prod-1' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(sut.create({ ...custom, description: '  ' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    service.vendor = 'mail';
    await expect(sut.create(custom)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', detail: expect.stringMatching(/^amount: /) });
  });

  it('is accepted as an order of one item of that name at that amount, no product', async () => {
    const { sut, requests, placed } = setup();
    await sut.create(custom);
    await sut.accept({ requestId: requests.row.id, key: undefined, email: 'payer@example.com', viewerId: PAYER } as never);
    expect(placed).toEqual([
      { how: 'custom', input: expect.objectContaining({ serviceId: 'svc-1' }), item: { name: 'Consulting hour', price: 12_550 } },
    ]);
  });
});

describe('accept', () => {
  it('places the order under the request lock without a network call; the seller is told from the event after commit', async () => {
    const { sut, requests, identity } = setup();
    const { request } = await sut.accept({ requestId: 'req-1', key: KEY, email: 'payer@example.com' } as never);
    expect(request).toMatchObject({ state: 'accepted', orderId: 'order-1' });
    expect(requests.row.state).toBe('accepted');
    expect(requests.events).toEqual([toldAbout(COMMERCE_EVENTS.requestAccepted, { orderId: 'order-1', payerId: null })]);
    expect(identity.mails).toEqual([]);
  });
});

describe('decline', () => {
  it('records commerce.request.declined with the move; the seller is told by the listeners, not under the lock', async () => {
    const { sut, requests, identity } = setup();
    const declined = await sut.decline({ requestId: 'req-1', key: KEY, viewerId: PAYER });
    expect(declined).toMatchObject({ state: 'declined' });
    expect(requests.events).toEqual([toldAbout(COMMERCE_EVENTS.requestDeclined, { payerId: PAYER, reason: null })]);
    expect(identity.mails).toEqual([]);
  });

  it('keeps the reason (trimmed; blank is none) on the row and in the event', async () => {
    const { sut, requests } = setup();
    const declined = await sut.decline({ requestId: 'req-1', key: KEY, reason: '  Already paid in cash \n' });
    expect(declined.declineReason).toBe('Already paid in cash');
    expect(requests.events).toEqual([toldAbout(COMMERCE_EVENTS.requestDeclined, { payerId: null, reason: 'Already paid in cash' })]);
    const other = setup();
    await expect(other.sut.decline({ requestId: 'req-1', key: KEY, reason: '   ' })).resolves.toMatchObject({ declineReason: null });
  });

  it('records nothing when the request was answered at the same moment', async () => {
    const { sut, requests } = setup();
    requests.row = { ...requests.row, state: 'open' };
    const decline = sut.decline({ requestId: 'req-1', key: KEY });
    requests.row.state = 'accepted';
    await expect(decline).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(requests.events).toEqual([]);
  });
});
