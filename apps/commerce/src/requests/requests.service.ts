import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  AppError,
  COMMERCE_EVENTS,
  formatUsd,
  linkBuilder,
  REQUEST_LIFETIME_DAYS,
  type AcceptRequestMessage,
  type CreateRequestMessage,
  type DeclineRequestMessage,
  type ListRequestsMessage,
  type OrderView,
  type PaymentRequestList,
  type PaymentRequestView,
  type RequestMessage,
  type RequestSnapshot,
  type RequestState,
} from '@tinkerdesk/contracts';
import { createUnderKey, type TransactionManager } from '@tinkerdesk/persistence';
import { commerceEvent } from '../events/commerce-events.js';
import { IdentityDirectory } from '../notify/identity-directory.js';
import { ORDERS_SETTINGS, OrdersService, type OrderRequests, type OrdersSettings } from '../orders/orders.service.js';
import { ProductsService } from '../products/products.service.js';
import { ProviderServicesService } from '../services/provider-services.service.js';
import { assertMove, paidRequestRefusal } from './request-states.js';
import type { RequestedProduct } from './payment-request.entity.js';
import { RequestsRepository, type RequestRow } from './requests.repository.js';

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

const snapshot = (row: RequestRow): RequestSnapshot => ({
  id: row.id,
  sellerId: row.sellerId,
  email: row.email,
  productName: row.product.name,
  price: row.product.price,
});

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Payment requests: a seller asks a person by email to pay for one of their products or a custom
 * amount with a description (the order then has one item of that name and no product); the payer
 * (holding the emailed link's key, or signed in with that verified address) accepts, which places an
 * order at the asked price and goes on to payment, or declines. Anyone else is answered as for a
 * missing request. States in request-states.ts.
 */
@Injectable()
export class RequestsService implements OrderRequests, OnModuleInit {
  private readonly links;

  constructor(
    @Inject(RequestsRepository) private readonly requests: RequestsRepository,
    @Inject(ProviderServicesService) private readonly services: ProviderServicesService,
    @Inject(ProductsService) private readonly products: ProductsService,
    @Inject(OrdersService) private readonly orders: OrdersService,
    @Inject(IdentityDirectory) private readonly identity: IdentityDirectory,
    @Inject(ORDERS_SETTINGS) settings: OrdersSettings,
  ) {
    this.links = linkBuilder(settings.publicUrl);
  }

  /** Orders change the request an order answers through this feature (paid, withdrawn with it), in their transaction. */
  onModuleInit(): void {
    this.orders.useRequests(this);
  }

  idOf(orderId: string): Promise<string | null> {
    return this.requests.idOfOrder(orderId);
  }

  lockOf(manager: TransactionManager, orderId: string): Promise<{ id: string; state: RequestState } | null> {
    return this.requests.lockOfOrder(manager, orderId);
  }

  markPaid(manager: TransactionManager, orderId: string): Promise<void> {
    return this.requests.settleOfOrder(manager, orderId, 'paid');
  }

  cancelWith(manager: TransactionManager, orderId: string): Promise<void> {
    return this.requests.settleOfOrder(manager, orderId, 'cancelled');
  }

  async create(input: CreateRequestMessage): Promise<PaymentRequestView> {
    const service = await this.services.find(input.service);
    if (!service || service.userId !== input.sellerId) throw new AppError('NOT_FOUND', 'no such service');
    const asked = await this.asked(input, service);
    const email = input.email.trim().toLowerCase();
    const key = randomBytes(32).toString('base64url');
    const payerId = await this.identity.accountOf(email);
    const id = randomUUID();
    const from = service.displayName;
    const note = (input.note ?? '').trim();
    const what = `${formatUsd(asked.price)} for ${asked.name}`;
    const addressee = payerId === input.sellerId ? null : payerId;
    // The timelines and the email follow from the event, after commit; the email holds the secret
    // link, so it travels beside the event (pending_mail), never in the stream.
    const sent = commerceEvent(
      COMMERCE_EVENTS.requestSent,
      { type: 'request', id },
      { request: { id, sellerId: input.sellerId, email, productName: asked.name, price: asked.price }, payerId: addressee, from },
      {
        to: email,
        subject: `${from} asks you to pay ${what}`,
        text:
          `${from === service.name ? from : `${from} (${service.name})`} asks you to pay ${what}.` +
          (note ? `\n\n${note}` : '') +
          `\n\nAccept and pay, or decline, here (within ${REQUEST_LIFETIME_DAYS} days):\n${this.links.request(id, key)}\n`,
      },
    );
    const row = await this.requests.insert(
      {
        id,
        sellerId: input.sellerId,
        serviceId: service.id,
        productId: asked.id,
        product: asked,
        email,
        note,
        keyHash: hashKey(key),
        payerId: addressee,
        expires: new Date(Date.now() + REQUEST_LIFETIME_DAYS * 86_400_000),
      },
      [sent],
      createUnderKey('request.create', input.sellerId, input),
    );
    return this.view(row, 'seller');
  }

  /**
   * What the request asks: one of the service's active products at its price now, or a custom amount
   * named by the seller's description (never both; not on printed mail, which ships a product).
   */
  private async asked(input: CreateRequestMessage, service: { id: string; vendor: string }): Promise<RequestedProduct> {
    if (input.product === undefined) {
      const name = (input.description ?? '').trim();
      if (input.amount === undefined || !name)
        throw new AppError('VALIDATION_FAILED', 'amount and description are required without a product');
      if (service.vendor === 'mail') {
        throw new AppError('VALIDATION_FAILED', 'amount: printed mail is shipped as a product; choose one of the service’s products');
      }
      return { id: null, name, description: '', price: input.amount, currency: 'USD' };
    }
    if (input.amount !== undefined || input.description !== undefined) {
      throw new AppError(
        'VALIDATION_FAILED',
        'amount and description are for a request without a product: choose a product or a custom amount',
      );
    }
    const product = await this.products.find(input.product);
    if (!product || product.serviceId !== service.id) throw new AppError('NOT_FOUND', 'no such product');
    if (!product.active) throw new AppError('CONFLICT', 'this product is not for sale at the moment');
    return { id: product.id, name: product.name, description: product.description, price: product.price, currency: 'USD' };
  }

  /** The request as the viewer may see it: its seller, or its payer (the link's key, or signed in with that verified address). */
  private async access(input: RequestMessage): Promise<{ row: RequestRow; role: 'payer' | 'seller' }> {
    let row = await this.requests.find(input.requestId);
    if (!row) throw new AppError('NOT_FOUND', 'no such request');
    if (row.state === 'open' && row.expires.getTime() <= Date.now()) row = (await this.requests.move(row.id, 'open', 'expired')) ?? row;
    if (input.viewerId && input.viewerId === row.sellerId) return { row, role: 'seller' };
    if (input.key && sameHash(hashKey(input.key), row.keyHash)) return { row, role: 'payer' };
    if (input.viewerId && input.viewerId === row.payerId) return { row, role: 'payer' };
    if (input.viewerId && (await this.identity.verifiedEmail(input.viewerId))?.toLowerCase() === row.email) return { row, role: 'payer' };
    throw new AppError('NOT_FOUND', 'no such request');
  }

  async get(input: RequestMessage): Promise<PaymentRequestView> {
    const { row, role } = await this.access(input);
    return this.view(row, role);
  }

  async list(input: ListRequestsMessage): Promise<PaymentRequestList> {
    const offset = input.offset ?? 0;
    const limit = input.limit ?? 20;
    let who: { sellerId: string } | { email: string; payerId: string } = { sellerId: input.viewerId };
    if (input.box === 'received') who = { email: (await this.identity.verifiedEmail(input.viewerId)) ?? '', payerId: input.viewerId };
    const { rows, total } = await this.requests.list(who, offset, limit);
    const role = input.box === 'received' ? 'payer' : 'seller';
    return { requests: await Promise.all(rows.map((r) => this.view(r, role))), total, offset, limit };
  }

  /** Places the order at the asked price and answers it; the payer goes on to pay it (POST /v1/orders/{id}/pay). */
  async accept(input: AcceptRequestMessage): Promise<{ request: PaymentRequestView; order: OrderView }> {
    const { row, role } = await this.access(input);
    if (role !== 'payer') throw new AppError('NOT_FOUND', 'no such request');
    assertMove(row.state, 'accepted', 'accepted');
    const custom = row.product.id === null;
    if (!custom && !row.productId) throw new AppError('CONFLICT', 'the product of this request is no longer sold');
    // The row stays locked while the order is placed: of two accepts at once, the second finds it accepted.
    const { accepted, order } = await this.requests.locked(row.id, async (current, move) => {
      assertMove(current.state, 'accepted', 'accepted');
      const buyer = {
        sellerId: row.sellerId,
        serviceId: row.serviceId,
        email: input.email,
        ...(input.note !== undefined ? { note: input.note } : {}),
        share: input.share ?? false,
        ...(input.viewerId ? { buyerId: input.viewerId } : {}),
      };
      const placed = custom
        ? await this.orders.createCustom(buyer, { name: row.product.name, price: row.product.price })
        : await this.orders.create({ ...buyer, product: row.productId as string }, { price: row.product.price });
      // Both sides' timelines and the seller's email follow from the event, after commit.
      const told = commerceEvent(
        COMMERCE_EVENTS.requestAccepted,
        { type: 'request', id: row.id },
        { request: snapshot(current), orderId: placed.id, payerId: input.viewerId ?? current.payerId },
      );
      return { accepted: await move('accepted', { orderId: placed.id, payerId: input.viewerId ?? null }, [told]), order: placed };
    });
    return { request: await this.view(accepted, 'payer'), order };
  }

  /** The payer declines an open request, optionally saying why (the seller sees the reason). */
  async decline(input: DeclineRequestMessage): Promise<PaymentRequestView> {
    const { row, role } = await this.access(input);
    if (role !== 'payer') throw new AppError('NOT_FOUND', 'no such request');
    assertMove(row.state, 'declined', 'declined');
    const reason = (input.reason ?? '').trim() || null;
    const declinedEvent = commerceEvent(
      COMMERCE_EVENTS.requestDeclined,
      { type: 'request', id: row.id },
      { request: snapshot(row), payerId: input.viewerId ?? row.payerId, reason },
    );
    const declined = await this.requests.move(row.id, 'open', 'declined', { payerId: input.viewerId ?? null, declineReason: reason }, [
      declinedEvent,
    ]);
    if (!declined) throw new AppError('CONFLICT', 'this request was answered at the same moment');
    return this.view(declined, 'payer');
  }

  /**
   * The seller withdraws a request. An open one is cancelled; an accepted one is cancelled together
   * with its unpaid order, in one transaction with both rows locked (OrdersService.cancelForRequest),
   * so the order cannot be paid afterwards (a payment that still gets through the provider is
   * refunded automatically). One whose order is paid is not withdrawn: CONFLICT, refund the order.
   */
  async cancel(input: RequestMessage): Promise<PaymentRequestView> {
    const { row, role } = await this.access(input);
    if (role !== 'seller') throw new AppError('NOT_FOUND', 'no such request');
    if (row.state === 'paid' && row.orderId) throw paidRequestRefusal(row.orderId);
    assertMove(row.state, 'cancelled', 'cancelled');
    let current: RequestRow | null = row;
    if (row.state === 'open') {
      current = await this.requests.move(row.id, 'open', 'cancelled');
      if (!current) {
        // Answered at the same moment: accepted now (cancelled with its order below), or else final.
        current = await this.requests.find(row.id);
        if (!current) throw new AppError('NOT_FOUND', 'no such request');
        if (current.state !== 'accepted') assertMove(current.state, 'cancelled', 'cancelled');
      }
    }
    if (current.state === 'accepted') {
      if (!current.orderId) throw new AppError('CONFLICT', 'this request has no order to cancel');
      await this.orders.cancelForRequest(current.orderId, row.sellerId);
      current = await this.requests.find(row.id);
      if (!current) throw new AppError('NOT_FOUND', 'no such request');
    }
    return this.view(current, 'seller');
  }

  private async view(row: RequestRow, role: 'payer' | 'seller'): Promise<PaymentRequestView> {
    const service = await this.services.find(row.serviceId);
    return {
      id: row.id,
      state: row.state,
      sellerId: row.sellerId,
      // A request's service always exists (payment_request.service_id references it).
      sellerName: service?.displayName ?? '',
      serviceId: row.serviceId,
      serviceName: service?.name ?? '',
      product: row.product,
      email: row.email,
      note: row.note,
      orderId: row.orderId,
      declineReason: row.declineReason,
      role,
      expires: row.expires.toISOString(),
      created: row.created.toISOString(),
      modified: row.modified.toISOString(),
    };
  }
}
