import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  CompleteOrderMessage,
  CreateOrderMessage,
  FulfilMessage,
  ListOrdersMessage,
  OrderMessage,
  PayOrderMessage,
  RefundOrderMessage,
  ReplyMessage,
  StripeWebhookMessage,
  SUBJECTS,
  type FulfillmentView,
  type OrderList,
  type OrderView,
  type PaymentStart,
} from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { StripePaymentProvider } from '../payments/stripe.provider.js';
import { OrdersService } from './orders.service.js';

/** NATS handlers: translate only. */
@Controller()
export class OrdersController {
  constructor(
    @Inject(OrdersService) private readonly orders: OrdersService,
    @Inject(StripePaymentProvider) private readonly stripe: StripePaymentProvider,
  ) {}

  @Handles(SUBJECTS.commerce.orderCreate)
  create(@Payload() input: CreateOrderMessage): Promise<OrderView> {
    return this.orders.create(input);
  }

  @Handles(SUBJECTS.commerce.orderGet)
  get(@Payload() input: OrderMessage): Promise<OrderView> {
    return this.orders.get(input.orderId, input.viewerId, input.timeZone);
  }

  @Handles(SUBJECTS.commerce.orderList)
  list(@Payload() input: ListOrdersMessage): Promise<OrderList> {
    return this.orders.list(input);
  }

  @Handles(SUBJECTS.commerce.orderPay)
  pay(@Payload() input: PayOrderMessage): Promise<PaymentStart> {
    return this.orders.pay(input);
  }

  @Handles(SUBJECTS.commerce.orderComplete)
  complete(@Payload() input: CompleteOrderMessage): Promise<OrderView> {
    return this.orders.complete(input);
  }

  @Handles(SUBJECTS.commerce.orderCancel)
  cancel(@Payload() input: OrderMessage): Promise<OrderView> {
    return this.orders.cancel(input.orderId, input.viewerId, input.timeZone);
  }

  @Handles(SUBJECTS.commerce.orderRefund)
  refund(@Payload() input: RefundOrderMessage): Promise<OrderView> {
    return this.orders.refund(input);
  }

  @Handles(SUBJECTS.commerce.orderReply)
  reply(@Payload() input: ReplyMessage): Promise<OrderView> {
    return this.orders.reply(input.orderId, input.viewerId, input.note, input.idempotencyKey);
  }

  @Handles(SUBJECTS.commerce.fulfillmentGet)
  fulfillment(@Payload() input: OrderMessage): Promise<FulfillmentView> {
    return this.orders.fulfillment(input.orderId, input.viewerId ?? '', input.timeZone ?? 'UTC');
  }

  @Handles(SUBJECTS.commerce.fulfillmentComplete)
  fulfil(@Payload() input: FulfilMessage): Promise<OrderView> {
    return this.orders.fulfil(input.orderId, input.viewerId, input.note);
  }

  @Handles(SUBJECTS.commerce.webhookStripe)
  async webhook(@Payload() input: StripeWebhookMessage): Promise<{ success: true; applied: boolean }> {
    const event = this.stripe.parseWebhook(input.payload, input.signature);
    return { success: true, applied: await this.orders.applyEvent('stripe', event) };
  }
}
