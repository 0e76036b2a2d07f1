import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  AppError,
  COMMERCE_EVENTS,
  RECEIPTED_ORDER_STATES,
  formatLongDate,
  linkBuilder,
  productImagePath,
  type CompleteOrderMessage,
  type CreateOrderMessage,
  type FulfillmentView,
  type ListOrdersMessage,
  type OrderList,
  type OrderRole,
  type OrderView,
  type PaymentProviderId,
  type PaymentStart,
  type PayOrderMessage,
  type ReceiptView,
  type RefundOrderMessage,
  type RequestState,
  type Vendor,
} from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import { createUnderKey, type StoredAnswer, type TransactionManager } from '@tinkerdesk/persistence';
import { commerceEvent, orderSnapshot } from '../events/commerce-events.js';
import { COMMERCE_LOGGER } from '../logger.token.js';
import { IdentityDirectory } from '../notify/identity-directory.js';
import { PAYMENT_PROVIDERS_TOKEN, type CheckoutState, type PaymentEvent, type PaymentProviders } from '../payments/payment-provider.js';
import { ProductsService, type ProductOrders } from '../products/products.service.js';
import { ProviderServicesService, type ServiceRow } from '../services/provider-services.service.js';
import { assertMove, paidRequestRefusal } from '../requests/request-states.js';
import { listedOf, type ListedOrder, type ListedReceipt } from './listed-order.js';
import { OrderRefunds } from './order-refunds.js';
import { assertTransition, canTransition, PAYABLE_STATES } from './order-states.js';
import { OrdersRepository, type LatePaymentRow, type OrderRow, type OrdersTx, type PaymentSessionRow } from './orders.repository.js';

export const ORDERS_SETTINGS = Symbol('ORDERS_SETTINGS');

export interface OrdersSettings {
  /** The public origin: links in emails and the providers' return addresses. */
  publicUrl: string;
}

/**
 * What orders need of the payment request an order answers (the requests feature's rows), done in
 * the order's transaction with its manager, after the order's lock: the requests feature provides it
 * (RequestsService registers with useRequests), so money and the request's state change atomically.
 */
export interface OrderRequests {
  /** The id of the request this order answers (read outside any transaction), or null. */
  idOf(orderId: string): Promise<string | null>;
  /** The request this order answers, locked (after the order); null when it answers none. */
  lockOf(manager: TransactionManager, orderId: string): Promise<{ id: string; state: RequestState } | null>;
  /** The request this order answers is paid now: accepted → paid (request-states.ts). */
  markPaid(manager: TransactionManager, orderId: string): Promise<void>;
  /** The request this order answers is withdrawn with it: accepted → cancelled. */
  cancelWith(manager: TransactionManager, orderId: string): Promise<void>;
}

/** Until the requests feature registers: no order answers a request. */
const NO_REQUESTS: OrderRequests = {
  idOf: () => Promise.resolve(null),
  lockOf: () => Promise.resolve(null),
  markPaid: () => Promise.resolve(),
  cancelWith: () => Promise.resolve(),
};

/** A provider's payment, in the terms an order needs. */
interface Payment {
  sessionId: string;
  paymentId: string | null;
  amount: number;
  /** A provider event applied at most once (Stripe's webhook ids; the sandbox's own). */
  event?: { provider: PaymentProviderId; id: string; type: string };
}

/**
 * Orders: placed at the product's current price (a later price change never touches them), paid
 * through the service's provider (one open payment session per order, Idempotency-Keys kept 24 h),
 * confirmed by the returning browser or by the provider's signed event (each applied once), then
 * fulfilled or refunded by the seller. Every state change goes through order-states.ts.
 */
@Injectable()
export class OrdersService implements ProductOrders, OnModuleInit {
  private readonly links;
  private readonly refunds: OrderRefunds;
  private requests: OrderRequests = NO_REQUESTS;

  constructor(
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
    @Inject(ProviderServicesService) private readonly services: ProviderServicesService,
    @Inject(ProductsService) private readonly products: ProductsService,
    @Inject(PAYMENT_PROVIDERS_TOKEN) private readonly providers: PaymentProviders,
    @Inject(IdentityDirectory) private readonly identity: IdentityDirectory,
    @Inject(ORDERS_SETTINGS) settings: OrdersSettings,
    @Inject(COMMERCE_LOGGER) private readonly logger: Logger,
  ) {
    this.links = linkBuilder(settings.publicUrl);
    this.refunds = new OrderRefunds(orders, providers);
  }

  /** Products ask this feature whether a product was ordered before deleting it. */
  onModuleInit(): void {
    this.products.useOrders(this);
  }

  async isOrdered(manager: TransactionManager, productId: string): Promise<boolean> {
    return (await this.orders.countOrdersOfProduct(productId, manager)) > 0;
  }

  /** The requests feature registers what an order does to the request it answers (OrderRequests). */
  useRequests(requests: OrderRequests): void {
    this.requests = requests;
  }

  /**
   * An account verified this address (identity.email.verified, heard after identity's commit): the
   * orders placed signed out with it become the account's, in the listener's transaction. Heard twice,
   * nothing changes the second time (an order is claimed once).
   */
  async claimByEmail(manager: TransactionManager, userId: string, email: string): Promise<number> {
    return this.orders.claimByEmail(manager, userId, email);
  }

  // ---- placing and reading ------------------------------------------------------------------

  /**
   * Places an order at the product's current price, or (a payment request) at the price asked then
   * (`options.price`, never from a client).
   */
  async create(input: CreateOrderMessage, options: { price?: number } = {}): Promise<OrderView> {
    const service = await this.services.find(input.serviceId);
    if (!service || service.userId !== input.sellerId) throw new AppError('NOT_FOUND', 'no such service');
    const product = await this.products.find(input.product);
    if (!product || product.serviceId !== service.id) throw new AppError('NOT_FOUND', 'no such product');
    if (!product.active) throw new AppError('CONFLICT', 'this product is not for sale at the moment');
    let shipping = null;
    if (service.vendor === 'mail') {
      if (!input.shipping)
        throw new AppError('VALIDATION_FAILED', 'shipping is required for printed mail: a shipping service, options and the address');
      const allowed = product.shipping ?? { services: [], options: [] };
      if (!allowed.services.includes(input.shipping.service)) {
        throw new AppError(
          'VALIDATION_FAILED',
          `shipping.service ${input.shipping.service} is not offered for this product (offered: ${allowed.services.join(', ')})`,
        );
      }
      const refused = input.shipping.options.filter((o) => !allowed.options.includes(o));
      if (refused.length > 0)
        throw new AppError('VALIDATION_FAILED', `shipping.options not offered for this product: ${refused.join(', ')}`);
      shipping = { service: input.shipping.service, options: [...input.shipping.options], address: { ...input.shipping.address } };
    } else if (input.shipping !== undefined) {
      throw new AppError('VALIDATION_FAILED', 'shipping is only for printed mail products');
    }
    const price = options.price ?? product.price;
    const image = product.uploadedImage ? productImagePath(product.id, 'small') : product.image;
    return this.place(
      service,
      input,
      { productId: product.id, name: product.name, description: product.description, price, image },
      shipping,
    );
  }

  /**
   * Places an order of a custom amount (a payment request without a product): one item named by the
   * seller's description, no product, no shipping. The amount is the request's, never a client's.
   */
  async createCustom(input: Omit<CreateOrderMessage, 'product' | 'shipping'>, item: { name: string; price: number }): Promise<OrderView> {
    const service = await this.services.find(input.serviceId);
    if (!service || service.userId !== input.sellerId) throw new AppError('NOT_FOUND', 'no such service');
    return this.place(service, input, { productId: null, name: item.name, description: '', price: item.price, image: null }, null);
  }

  private async place(
    service: { id: string; userId: string; provider: string; account: string; vendor: string },
    input: Omit<CreateOrderMessage, 'product' | 'shipping'>,
    item: { productId: string | null; name: string; description: string; price: number; image: string | null },
    shipping: OrderRow['shipping'],
  ): Promise<OrderView> {
    const { price } = item;
    const email = input.email.trim().toLowerCase();
    // Placed signed out with an address an account has verified: the order is that account's too.
    const claimedBy = input.buyerId ? null : await this.identity.accountOf(email);
    const row = {
      id: randomUUID(),
      serviceId: service.id,
      productId: item.productId,
      sellerId: service.userId,
      buyerId: input.buyerId ?? null,
      claimedBy,
      email,
      note: (input.note ?? '').trim(),
      share: input.share ?? false,
      state: 'pending' as const,
      provider: service.provider as PaymentProviderId,
      account: service.account,
      vendor: service.vendor as Vendor,
      items: [
        {
          productId: item.productId,
          name: item.name,
          description: item.description,
          unitPrice: price,
          quantity: 1,
          amount: price,
          image: item.image,
        },
      ],
      amount: price,
      currency: 'USD' as const,
      shipping,
    };
    // Both sides' timelines are written by the listener, from the event recorded with the order.
    const placed = commerceEvent(
      COMMERCE_EVENTS.orderPlaced,
      { type: 'order', id: row.id },
      { order: orderSnapshot({ ...row, fulfilNote: null }) },
    );
    const order = await this.orders.insertOrder(row, [placed], createUnderKey('order.create', input.buyerId ?? 'visitor', input));
    return this.view(order, input.buyerId, 'UTC');
  }

  async get(orderId: string, viewerId: string | undefined, timeZone = 'UTC'): Promise<OrderView> {
    const order = await this.orders.findOrder(orderId);
    if (!order) throw new AppError('NOT_FOUND', 'no such order');
    return this.view(order, viewerId, timeZone);
  }

  async list(input: ListOrdersMessage): Promise<OrderList> {
    const offset = input.offset ?? 0;
    const limit = input.limit ?? 20;
    const who = input.role === 'seller' ? { sellerId: input.viewerId } : { buyerId: input.viewerId };
    const states = input.receipts === 'true' ? RECEIPTED_ORDER_STATES.filter((s) => !input.state || s === input.state) : input.state;
    // The page (its count, ids and services), then what each order shows and their services (another
    // feature's) side by side, on two connections of the pool.
    const page = await this.orders.orderPage(who, states, offset, limit);
    const [rows, found] = await Promise.all([
      this.orders.listedOrders(page.orders.map((o) => o.id)),
      this.services.findMany(page.orders.map((o) => o.serviceId)),
    ]);
    const total = page.total;
    const services = new Map(found.map((s) => [s.id, s]));
    const orders = rows.map((row) =>
      compose(row, services.get(row.order.serviceId) ?? null, this.roleOf(row.order, input.viewerId), 'UTC'),
    );
    return { orders, total, offset, limit };
  }

  /**
   * How the viewer relates to an order: its seller, its buyer, or a visitor holding the link of an
   * order placed signed out. An order placed signed in is its buyer's and seller's only: anyone else
   * is answered exactly as for a missing order.
   */
  private roleOf(order: Pick<OrderRow, 'sellerId' | 'buyerId' | 'claimedBy'>, viewerId: string | undefined): OrderRole {
    if (viewerId && viewerId === order.sellerId) return 'seller';
    if (viewerId && (viewerId === order.buyerId || viewerId === order.claimedBy)) return 'buyer';
    if (order.buyerId === null) return 'visitor';
    throw new AppError('NOT_FOUND', 'no such order');
  }

  /**
   * The viewer's role for reading: as roleOf, and on an order placed signed out, the signed-in account
   * whose verified address placed it is its buyer too (as for writing: partyOf).
   */
  private async readerOf(order: OrderRow, viewerId: string | undefined): Promise<OrderRole> {
    const role = this.roleOf(order, viewerId);
    if (role !== 'visitor' || !viewerId) return role;
    return (await this.identity.verifiedEmail(viewerId))?.toLowerCase() === order.email ? 'buyer' : 'visitor';
  }

  /** The order as the viewer may see it (compose), with what it shows read for it. */
  private async view(order: OrderRow, viewerId: string | undefined, timeZone: string, knownRole?: OrderRole): Promise<OrderView> {
    const role = knownRole ?? (await this.readerOf(order, viewerId));
    const [receipt, replies, service, latePayments, refunds] = await Promise.all([
      PAYABLE_STATES.includes(order.state) || order.state === 'cancelled' ? null : this.orders.receipt(order.id),
      role === 'visitor' ? [] : this.orders.replies(order.id),
      this.services.find(order.serviceId),
      this.orders.latePayments(order.id),
      this.orders.refunds(order.id),
    ]);
    return compose(listedOf(order, receipt, replies, refunds, latePayments), service, role, timeZone);
  }

  // ---- Idempotency-Key -----------------------------------------------------------------------

  /**
   * Runs `work`, which asks a provider, once per key (IdempotencyKeys.outside: claimed before it, a
   * retry while it runs waits up to 2 s for its answer, a claim whose process died is taken over after
   * its lease): a retry with the same request answers the stored answer; another request under the key
   * is a conflict (as Stripe answers). The scope is the call and the order (`pay:<order>`).
   */
  private keyed<T extends StoredAnswer>(scope: string, key: string | undefined, request: unknown, work: () => Promise<T>): Promise<T> {
    const create = key === undefined ? undefined : { scope, key, request };
    return this.orders.outside(create, work).then(({ answer }) => answer);
  }

  // ---- paying --------------------------------------------------------------------------------

  async pay(input: PayOrderMessage): Promise<PaymentStart> {
    const request = { viewerId: input.viewerId ?? null };
    const answer = await this.keyed(`pay:${input.orderId}`, input.idempotencyKey, request, async () => ({
      ...(await this.startPayment(input)),
    }));
    return answer;
  }

  /**
   * Opens the provider's pay page, or answers the one already open. The provider is asked before the
   * order is locked (no network call under a lock); the order's lock then decides: the new page
   * becomes the order's one open page, unless the order cannot be paid any more (cancelled at the
   * same moment) or another request opened one meanwhile. A page made but not used is closed at the
   * provider after commit: its address reached nobody, so it takes no payment.
   */
  private async startPayment(input: PayOrderMessage): Promise<PaymentStart> {
    const { order, sellerName, service } = await this.payable(input.orderId, input.viewerId);
    const provider = this.providers[order.provider];
    const answer = (s: { id: string; url: string }): PaymentStart => ({
      orderId: order.id,
      provider: order.provider,
      sessionId: s.id,
      url: s.url,
    });
    const open = await this.orders.openSessionOf(order.id);
    if (open) {
      const state = await provider.retrieveCheckout(open.id, order.account);
      if (state?.status === 'open') return answer(open);
      if (state?.paid) throw new AppError('CONFLICT', 'this order cannot be paid: its payment went through; open the order to see it');
    }
    const item = order.items[0];
    const statementDescriptor = typeof service.extras.statementDescriptor === 'string' ? service.extras.statementDescriptor : undefined;
    const created = await provider.createCheckout({
      orderId: order.id,
      account: order.account,
      amount: order.amount,
      currency: order.currency,
      productName: item?.name ?? 'Order',
      description: item?.description ?? '',
      email: order.email,
      sellerName,
      ...(statementDescriptor ? { statementDescriptor } : {}),
      successUrl: this.links.orderReturn(order.id, undefined, (await this.requests.idOf(order.id)) ?? undefined),
      cancelUrl: this.links.order(order.id),
      idempotencyKey: `pay-${order.id}-${input.idempotencyKey ?? randomUUID()}`,
    });
    const decided = await this.orders.inTransaction(
      async (
        tx,
      ): Promise<{ use: 'created' } | { use: 'other'; session: PaymentSessionRow } | { use: 'none'; state: OrderRow['state'] }> => {
        const locked = await tx.lockOrder(order.id);
        if (!locked) throw new AppError('NOT_FOUND', 'no such order');
        if (!PAYABLE_STATES.includes(locked.state)) return { use: 'none', state: locked.state };
        const current = await tx.openSession(locked.id);
        if (current && current.id !== open?.id) return { use: 'other', session: current };
        // The page the provider said is closed (or none): the new one replaces it.
        if (current) await tx.setSessionStatus(current.id, 'expired');
        await tx.insertSession({
          id: created.id,
          orderId: locked.id,
          provider: locked.provider,
          account: locked.account,
          url: created.url,
          status: 'open',
          amount: locked.amount,
        });
        return { use: 'created' };
      },
    );
    if (decided.use === 'created') return answer(created);
    await provider
      .expireCheckout(created.id, order.account)
      .catch((error: unknown) =>
        this.logger.warn(
          { orderId: order.id, sessionId: created.id, err: error instanceof Error ? error.message : String(error) },
          'could not close an unused pay page (its address reached nobody)',
        ),
      );
    if (decided.use === 'other') return answer(decided.session);
    assertTransition(decided.state, 'paid', 'paid');
    throw new AppError('CONFLICT', 'this order cannot be paid now');
  }

  private async payable(orderId: string, viewerId: string | undefined) {
    const order = await this.orders.findOrder(orderId);
    if (!order) throw new AppError('NOT_FOUND', 'no such order');
    this.roleOf(order, viewerId);
    if (!PAYABLE_STATES.includes(order.state)) assertTransition(order.state, 'paid', 'paid');
    const service = await this.services.find(order.serviceId);
    if (!service) throw new AppError('NOT_FOUND', 'no such order');
    return { order, sellerName: service.displayName, service };
  }

  /**
   * The buyer is back from the pay page: the provider says what became of the session. Under a key
   * once; a retry answers the order as it is now (every outcome is applied once anyway).
   */
  async complete(input: CompleteOrderMessage): Promise<OrderView> {
    const request = { sessionId: input.sessionId, viewerId: input.viewerId ?? null };
    await this.keyed(`complete:${input.orderId}`, input.idempotencyKey, request, async () => {
      const order = await this.orders.findOrder(input.orderId);
      if (!order) throw new AppError('NOT_FOUND', 'no such order');
      this.roleOf(order, input.viewerId);
      const session = await this.orders.findSession(input.sessionId);
      // Another order's session (or one made up) answers like a missing one.
      if (!session || session.orderId !== order.id) throw new AppError('NOT_FOUND', 'no such payment session for this order');
      const state = await this.providers[order.provider].retrieveCheckout(session.id, order.account);
      if (!state || (state.orderId !== null && state.orderId !== order.id))
        throw new AppError('NOT_FOUND', 'no such payment session for this order');
      if (state.paid) await this.applyPaid(order.id, { sessionId: session.id, paymentId: state.paymentId, amount: state.amount });
      else if (state.failure) await this.applyFailed(order.id, state.failure);
      else if (state.status === 'expired') await this.orders.inTransaction((tx) => tx.setSessionStatus(session.id, 'expired'));
      return { id: order.id };
    });
    return this.get(input.orderId, input.viewerId, input.timeZone ?? 'UTC');
  }

  /**
   * Marks the order paid and issues its receipt, once: a paid order stays as it is (completing twice,
   * a webhook after the browser's return, a replayed event). Answers whether anything changed.
   */
  async applyPaid(orderId: string, payment: Payment): Promise<boolean> {
    let late: LatePaymentRow | null = null;
    // What the receipt names is read before the lock: the service's name and the seller's display
    // name as they are now; the receipt keeps them (receipts are records).
    const current = await this.orders.findOrder(orderId);
    const service = current ? await this.services.find(current.serviceId) : null;
    const outcome = await this.orders.inTransaction(async (tx) => {
      if (payment.event && !(await tx.claimEvent(payment.event.provider, payment.event.id, payment.event.type))) return null;
      const order = await tx.lockOrder(orderId);
      // An order's service always exists (order.service_id references it, never deleted).
      if (!order || !service) return null;
      if (!PAYABLE_STATES.includes(order.state)) {
        // Cancelled meanwhile (or paid by another payment): this money is not owed; it goes back.
        late = await this.recordLate(tx, order, payment);
        return null;
      }
      if (payment.amount !== order.amount) {
        this.logger.error({ orderId, paid: payment.amount, due: order.amount }, 'a payment of the wrong amount was not applied');
        return null;
      }
      const paidAt = new Date();
      const paid = await tx.updateOrder(order.id, { state: 'paid', paymentId: payment.paymentId, paidAt, failure: null });
      await tx.setSessionStatus(payment.sessionId, 'complete');
      await this.requests.markPaid(tx.manager, order.id);
      const supportEmail = typeof service.extras.supportEmail === 'string' ? service.extras.supportEmail : null;
      const receipt = await tx.insertReceipt({
        orderId: order.id,
        amount: order.amount,
        currency: order.currency,
        items: order.items,
        email: order.email,
        sellerName: service.displayName,
        serviceName: service.name,
        supportEmail,
        paidAt,
      });
      await tx.record(
        commerceEvent(
          COMMERCE_EVENTS.orderPaid,
          { type: 'order', id: order.id },
          {
            order: orderSnapshot(paid),
            receipt: {
              number: receipt.number,
              sellerName: receipt.sellerName,
              supportEmail: receipt.supportEmail,
              paidAt: receipt.paidAt.toISOString(),
              items: receipt.items,
              amount: receipt.amount,
            },
          },
        ),
      );
      return true;
    });
    if (late) await this.refundLate(late);
    return outcome === true;
  }

  /** The last payment try failed (a declined card): the order says why, and may be paid again. */
  async applyFailed(orderId: string, reason: string, event?: Payment['event']): Promise<boolean> {
    return this.orders.inTransaction(async (tx) => {
      if (event && !(await tx.claimEvent(event.provider, event.id, event.type))) return false;
      const order = await tx.lockOrder(orderId);
      if (!order || !PAYABLE_STATES.includes(order.state)) return false;
      await tx.updateOrder(order.id, { state: 'failed', failure: reason });
      return true;
    });
  }

  /** A verified provider event (Stripe's webhook): applied once; answers whether it changed anything. */
  async applyEvent(provider: PaymentProviderId, event: PaymentEvent): Promise<boolean> {
    const record = { provider, id: event.eventId, type: event.kind };
    switch (event.kind) {
      case 'paid':
      case 'failed': {
        const order = await this.orderOfSession(event.sessionId, event.orderId, event.account);
        if (!order) return this.recordOnly(record);
        if (event.kind === 'paid')
          return this.applyPaid(order.id, { sessionId: event.sessionId, paymentId: event.paymentId, amount: event.amount, event: record });
        return this.applyFailed(order.id, event.reason, record);
      }
      case 'expired':
        return this.orders.inTransaction(async (tx) => {
          if (!(await tx.claimEvent(provider, event.eventId, event.kind))) return false;
          const session = await this.orders.findSession(event.sessionId);
          if (session?.status === 'open') await tx.setSessionStatus(session.id, 'expired');
          return session?.status === 'open';
        });
      case 'refunded': {
        const order = await this.orders.findOrderByPayment(event.paymentId);
        if (!order || (event.account !== null && event.account !== order.account)) return this.recordOnly(record);
        return this.refunds.applyProviderRefund(order.id, record, event.amountRefunded);
      }
      case 'ignored':
        return this.recordOnly(record);
    }
  }

  private recordOnly(record: { provider: PaymentProviderId; id: string; type: string }): Promise<boolean> {
    return this.orders.inTransaction(async (tx) => {
      await tx.claimEvent(record.provider, record.id, record.type);
      return false;
    });
  }

  /** The order a provider session was opened for, when the event agrees with it (order and account). */
  private async orderOfSession(sessionId: string, orderId: string | null, account: string | null): Promise<OrderRow | null> {
    const session = await this.orders.findSession(sessionId);
    if (!session || (orderId !== null && session.orderId !== orderId)) return null;
    const order = await this.orders.findOrder(session.orderId);
    if (!order || (account !== null && account !== order.account)) return null;
    return order;
  }

  // ---- after payment -------------------------------------------------------------------------

  /**
   * Cancels an unpaid order (its buyer, a visitor holding the link of a guest order, or its seller).
   * Cancel and payment are decided under the order's lock: a payment applied first makes the cancel
   * a CONFLICT (the order is paid; the seller may refund it); a cancel first closes the order to
   * every payment, and one that still gets through the provider is refunded automatically. The
   * provider's pay page is closed after commit (no network call under the lock).
   */
  async cancel(orderId: string, viewerId: string | undefined, timeZone = 'UTC'): Promise<OrderView> {
    const cancelled = await this.orders.inTransaction(async (tx: OrdersTx) => {
      const order = await tx.lockOrder(orderId);
      if (!order) throw new AppError('NOT_FOUND', 'no such order');
      this.roleOf(order, viewerId);
      assertTransition(order.state, 'cancelled', 'cancelled');
      return this.cancelLocked(tx, order);
    });
    await this.afterCancel(cancelled);
    return this.get(orderId, viewerId, timeZone);
  }

  /**
   * The seller withdraws an accepted payment request: its order is cancelled in the same transaction
   * (both rows locked, the order's first). A paid order is not cancelled this way: CONFLICT, refund
   * it instead. Answers nothing; the request reads its new state afterwards.
   */
  async cancelForRequest(orderId: string, sellerId: string): Promise<void> {
    const cancelled = await this.orders.inTransaction(async (tx: OrdersTx) => {
      const order = await tx.lockOrder(orderId);
      if (!order || order.sellerId !== sellerId) throw new AppError('NOT_FOUND', 'no such request');
      const request = await this.requests.lockOf(tx.manager, order.id);
      if (!request) throw new AppError('NOT_FOUND', 'no such request');
      if (order.state === 'paid' || order.state === 'fulfilled') throw paidRequestRefusal(order.id);
      assertMove(request.state, 'cancelled', 'cancelled');
      assertTransition(order.state, 'cancelled', 'cancelled');
      return this.cancelLocked(tx, order);
    });
    await this.afterCancel(cancelled);
  }

  /** Under the order's lock: cancelled, its payment request withdrawn with it, its pay session closed here. */
  private async cancelLocked(tx: OrdersTx, order: OrderRow): Promise<{ order: OrderRow; session: PaymentSessionRow | null }> {
    const session = await tx.openSession(order.id);
    if (session) await tx.setSessionStatus(session.id, 'expired');
    await this.requests.cancelWith(tx.manager, order.id);
    const cancelled = await tx.updateOrder(order.id, { state: 'cancelled' });
    await tx.record(commerceEvent(COMMERCE_EVENTS.orderCancelled, { type: 'order', id: order.id }, { order: orderSnapshot(cancelled) }));
    return { order: cancelled, session };
  }

  /**
   * After a cancel committed: closes the provider's pay page, and reads what it says then. Paid there
   * (the buyer paid before it closed) → that payment is refunded automatically; the provider's event
   * of it, when it comes, changes nothing more. A provider that cannot be reached now leaves the page
   * to its own expiry: a payment made on it is refunded when the provider tells of it.
   */
  private async afterCancel({ order, session }: { order: OrderRow; session: PaymentSessionRow | null }): Promise<void> {
    if (!session) return;
    let state: CheckoutState | null;
    try {
      state = await this.providers[order.provider].expireCheckout(session.id, order.account);
    } catch (error) {
      this.logger.warn(
        { orderId: order.id, sessionId: session.id, err: error instanceof Error ? error.message : String(error) },
        'could not close the pay page of a cancelled order (a payment made on it is refunded when the provider tells of it)',
      );
      return;
    }
    if (!state?.paid || !state.paymentId) return;
    const payment: Payment = { sessionId: session.id, paymentId: state.paymentId, amount: state.amount };
    const late = await this.orders.inTransaction(async (tx) => {
      const locked = await tx.lockOrder(order.id);
      return locked ? this.recordLate(tx, locked, payment) : null;
    });
    if (late) await this.refundLate(late);
  }

  /**
   * Under the order's lock, for an order that cannot take `payment` (cancelled, or paid with another
   * payment): records it for an automatic refund, once per payment. Answers the row to refund when
   * this call recorded it (the caller refunds after commit), else null.
   */
  private async recordLate(tx: OrdersTx, order: OrderRow, payment: Payment): Promise<LatePaymentRow | null> {
    if (!payment.paymentId || order.paymentId === payment.paymentId) return null;
    const row = {
      provider: order.provider,
      paymentId: payment.paymentId,
      orderId: order.id,
      sessionId: payment.sessionId,
      account: order.account,
      amount: payment.amount,
    };
    if (!(await tx.recordLatePayment(row))) return null;
    await tx.setSessionStatus(payment.sessionId, 'complete');
    this.logger.warn(
      { orderId: order.id, state: order.state, paymentId: payment.paymentId },
      'a payment came for an order that cannot take it: refunding it',
    );
    return { ...row, state: 'refund_pending', attempts: 0, lastError: null, refundedAt: null, created: new Date() };
  }

  /**
   * Refunds a late payment in full through its provider (the same idempotency key on every try, so
   * a retry refunds nothing twice), then records it, tells both sides on their timelines and by
   * email. A provider that fails leaves it refund_pending: retryLateRefunds tries again.
   */
  private async refundLate(late: Pick<LatePaymentRow, 'provider' | 'paymentId' | 'orderId' | 'account' | 'amount'>): Promise<void> {
    try {
      await this.providers[late.provider].refund(late.paymentId, late.account, late.amount, `late-refund-${late.paymentId}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error({ paymentId: late.paymentId, err: message }, 'could not refund a late payment yet (it is tried again)');
      await this.orders.noteLateRefundError(late.provider, late.paymentId, message);
      return;
    }
    // Recorded with its event in one transaction (the order locked first, as everywhere): both sides
    // are told once, by the listeners, after commit.
    await this.orders.inTransaction(async (tx) => {
      const order = await tx.lockOrder(late.orderId);
      const done = await tx.markLateRefunded(late.provider, late.paymentId);
      if (!done || !order) return;
      await tx.record(
        commerceEvent(
          COMMERCE_EVENTS.orderLatePaymentRefunded,
          { type: 'order', id: order.id },
          {
            order: orderSnapshot(order),
            paymentId: done.paymentId,
            amount: done.amount,
            orderState: order.state,
          },
        ),
      );
    });
  }

  /**
   * Finishes the refunds of late payments that are still pending (the provider failed, or the replica
   * that recorded one stopped): each replica leases its own rows. Answers how many it tried.
   */
  async retryLateRefunds(leaseSeconds = 60, limit = 20): Promise<number> {
    const leased = await this.orders.leaseLateRefunds(leaseSeconds, limit);
    for (const late of leased) await this.refundLate(late);
    return leased.length;
  }

  /**
   * The seller refunds a paid (or fulfilled) order, all that remains or `amount` cents of it, several
   * times until all of it (OrderRefunds: reserved under the lock, the provider asked after commit).
   * The same Idempotency-Key again refunds nothing more and answers the order as it is now; two keys
   * are two refunds.
   */
  async refund(input: RefundOrderMessage): Promise<OrderView> {
    const request = { viewerId: input.viewerId ?? null, amount: input.amount ?? null, reason: input.reason ?? null };
    await this.keyed(`refund:${input.orderId}`, input.idempotencyKey, request, async () => {
      await this.refunds.refund(input);
      return { id: input.orderId };
    });
    return this.get(input.orderId, input.viewerId, input.timeZone ?? 'UTC');
  }

  /** A message between buyer and seller; the other side is told by email. */
  /** A message on an order; under an Idempotency-Key once (a retry adds no second message and answers the order). */
  async reply(orderId: string, viewerId: string, note: string, idempotencyKey?: string): Promise<OrderView> {
    const order = await this.orders.findOrder(orderId);
    if (!order) throw new AppError('NOT_FOUND', 'no such order');
    const role = await this.partyOf(order, viewerId);
    const reply = { id: randomUUID(), orderId: order.id, authorId: viewerId, authorRole: role, note: note.trim() };
    // The buyer's email of a seller's message replies to the seller's support address, when there is one.
    const extras = role === 'seller' ? (await this.services.find(order.serviceId))?.extras : undefined;
    const supportEmail = typeof extras?.supportEmail === 'string' ? extras.supportEmail : null;
    const idempotent = createUnderKey('order.reply', viewerId, { orderId: order.id, note, idempotencyKey });
    await this.orders.inTransaction((tx) =>
      tx.once(idempotent, async () => {
        await tx.insertReply(reply);
        await tx.record(
          commerceEvent(
            COMMERCE_EVENTS.orderReplyAdded,
            { type: 'order', id: order.id },
            {
              order: orderSnapshot(order),
              reply: { id: reply.id, authorId: viewerId, role, note: reply.note },
              supportEmail,
            },
          ),
        );
        return { id: reply.id };
      }),
    );
    // The writer's role is known: a guest order's verified buyer sees the messages, theirs included.
    return this.view(order, viewerId, 'UTC', role);
  }

  /**
   * Who may write on an order: its seller, its buyer, or, on an order placed signed out, the account
   * whose verified email placed it. Anyone else is answered as for a missing order.
   */
  private async partyOf(order: OrderRow, viewerId: string): Promise<'buyer' | 'seller'> {
    if (viewerId === order.sellerId) return 'seller';
    if (viewerId === order.buyerId || viewerId === order.claimedBy) return 'buyer';
    if (order.buyerId === null && (await this.identity.verifiedEmail(viewerId))?.toLowerCase() === order.email) return 'buyer';
    throw new AppError('NOT_FOUND', 'no such order');
  }

  async fulfillment(orderId: string, viewerId: string, timeZone: string): Promise<FulfillmentView> {
    const order = await this.orders.findOrder(orderId);
    if (!order || order.sellerId !== viewerId) throw new AppError('NOT_FOUND', 'no such order');
    return {
      order: await this.view(order, viewerId, timeZone),
      buyer: order.share ? { email: order.email, name: order.shipping?.address.name ?? null } : null,
      shipping: order.shipping,
      canFulfil: canTransition(order.state, 'fulfilled'),
    };
  }

  async fulfil(orderId: string, viewerId: string, note: string | undefined): Promise<OrderView> {
    const done = await this.orders.inTransaction(async (tx) => {
      const order = await tx.lockOrder(orderId);
      if (!order || order.sellerId !== viewerId) throw new AppError('NOT_FOUND', 'no such order');
      assertTransition(order.state, 'fulfilled', 'marked fulfilled');
      const fulfilled = await tx.updateOrder(order.id, { state: 'fulfilled', fulfilledAt: new Date(), fulfilNote: note?.trim() || null });
      await tx.record(commerceEvent(COMMERCE_EVENTS.orderFulfilled, { type: 'order', id: order.id }, { order: orderSnapshot(fulfilled) }));
      return fulfilled;
    });
    return this.view(done, viewerId, 'UTC');
  }
}

/**
 * The order as the viewer may see it. The seller never sees the buyer's address unless the buyer
 * agreed to share it (the order's and the receipt's); messages are for the buyer and the seller
 * only, never for a visitor holding the link (the page says to sign in to read and write them).
 */
function compose(
  { order, receipt: stored, replies: written, latePayments: late, refunds }: ListedOrder,
  service: ServiceRow | null,
  role: OrderRole,
  timeZone: string,
): OrderView {
  // An unpaid or cancelled order has no receipt; a visitor never reads the messages.
  const receipt = PAYABLE_STATES.includes(order.state) || order.state === 'cancelled' ? null : stored;
  const replies = role === 'visitor' ? [] : written;
  // ListedOrder has the related rows in the view's terms already (replies, late payments, refunds).
  const showEmail = role !== 'seller' || order.share;
  return {
    id: order.id,
    state: order.state,
    serviceId: order.serviceId,
    serviceName: service?.name ?? '',
    sellerId: order.sellerId,
    // The receipt's name once issued (receipts are records); before, the service's display name.
    sellerName: receipt?.sellerName ?? service?.displayName ?? '',
    provider: order.provider,
    vendor: order.vendor,
    // The seller sees the buyer's address only with the buyer's consent (share).
    email: showEmail ? order.email : null,
    note: order.note,
    share: order.share,
    items: order.items,
    amount: order.amount,
    currency: order.currency,
    shipping: order.shipping,
    failure: order.failure,
    receipt: receipt ? toReceiptView(receipt, timeZone, showEmail) : null,
    replies,
    latePayments: late,
    role,
    created: order.created,
    modified: order.modified,
    paidAt: order.paidAt,
    fulfilledAt: order.fulfilledAt,
    // The delivery (a download link, a tracking number) is for whoever holds the order, as emailed.
    fulfilNote: order.fulfilNote,
    refundedAmount: order.refundedAmount,
    refunds,
  };
}

/** The receipt in the viewer's time zone; the buyer's address only when `showEmail` (not for a seller without consent). */
export function toReceiptView(receipt: ListedReceipt, timeZone: string, showEmail: boolean): ReceiptView {
  const paidAt = receipt.paidAt;
  return {
    number: receipt.number,
    items: receipt.items,
    amount: receipt.amount,
    currency: receipt.currency,
    paidAt,
    date: formatLongDate(paidAt, timeZone),
    timeZone,
    seller: { name: receipt.sellerName, service: receipt.serviceName, supportEmail: receipt.supportEmail },
    email: showEmail ? receipt.email : null,
  };
}
