import { Inject, Injectable } from '@nestjs/common';
import {
  buyerAccountOf,
  COMMERCE_EVENTS,
  formatLongDate,
  formatUsd,
  linkBuilder,
  type CommerceDomainEvent,
  type CommerceEventEnvelope,
  type SendMailMessage,
} from '@tinkerdesk/contracts';
import type { TransactionManager } from '@tinkerdesk/persistence';
import { IdentityDirectory, keyedMails } from '../notify/identity-directory.js';
import { ORDERS_SETTINGS, type OrdersSettings } from '../orders/orders.service.js';
import { TimelineService, type TimelineEntry } from '../timeline/timeline.service.js';
import { PendingMailRepository } from './pending-mail.repository.js';

const productOf = (order: { items: Array<{ name: string }> }, otherwise: string) => order.items[0]?.name ?? otherwise;

/** How a saved card is named on its owner's timeline. */
const describeCard = (m: { brand: string; last4: string }) =>
  `${m.brand === 'unknown' ? 'card' : m.brand.charAt(0).toUpperCase() + m.brand.slice(1)} card ending ${m.last4}`;

const requestWhat = (request: { price: number; productName: string }) => `${formatUsd(request.price)} for ${request.productName}`;

/** Text on one line (runs of white space as one space), cut at a word with "…" when longer than `max`. */
function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * What commerce does after a change committed, from its events: the timeline entries of both sides
 * (written in the timeline listener's transaction) and the emails (queued at identity over NATS by
 * the mail listener). Both listeners run each event once (OutboxListener).
 */
@Injectable()
export class CommerceReactions {
  private readonly links;

  constructor(
    @Inject(IdentityDirectory) private readonly identity: IdentityDirectory,
    @Inject(TimelineService) private readonly timeline: TimelineService,
    @Inject(PendingMailRepository) private readonly pendingMail: PendingMailRepository,
    @Inject(ORDERS_SETTINGS) settings: OrdersSettings,
  ) {
    this.links = linkBuilder(settings.publicUrl);
  }

  /** The timeline listener: the event's entries, in the listener's transaction (null: the pool, for unit tests). */
  async toTimeline(event: CommerceDomainEvent, manager: TransactionManager | null): Promise<void> {
    await this.timeline.write(manager, timelineEntries(event));
  }

  /**
   * The mail listener: every email of the event, keyed so identity sends each once; a failure throws
   * (the event is redelivered). An event's secret email (pending_mail) comes last (so the other mails'
   * keys do not depend on it), is sent, then deleted: a redelivery after that sends nothing twice.
   */
  async toMail(event: CommerceDomainEvent): Promise<void> {
    const mails = await this.mails(event);
    const secret = event.name === COMMERCE_EVENTS.requestSent ? await this.pendingMail.find(event.id) : null;
    for (const mail of keyedMails(event.id, secret ? [...mails, secret] : mails)) await this.identity.send(mail);
    if (secret) await this.pendingMail.delete(event.id);
  }

  private async mails(event: CommerceDomainEvent): Promise<SendMailMessage[]> {
    switch (event.name) {
      case COMMERCE_EVENTS.orderPaid:
        return this.paidMails(event.payload);
      case COMMERCE_EVENTS.orderRefunded:
        return [refundMail(event.payload, this.links.receipt(event.payload.order.id))];
      case COMMERCE_EVENTS.orderLatePaymentRefunded: {
        const { order, amount, orderState } = event.payload;
        const product = productOf(order, 'an order');
        const why = lateWhy(orderState);
        return [
          {
            ...(order.buyerId ? { toUserId: order.buyerId } : { to: order.email }),
            subject: `Your payment was refunded: ${product}`,
            text:
              `Hello,\n\nYour payment of ${formatUsd(amount)} for ${product} came ${why}, so it is not owed: ` +
              `it was refunded in full automatically. It reaches your card within 5 to 10 business days.\n\n${this.links.order(order.id)}\n`,
          },
          {
            toUserId: order.sellerId,
            subject: `A payment was refunded automatically: ${product}`,
            text:
              `A payment of ${formatUsd(amount)} for ${product} came ${why}; it was refunded in full automatically. ` +
              `There is nothing to do.\n\n${this.links.sellerOrder(order.id)}\n`,
          },
        ];
      }
      case COMMERCE_EVENTS.orderReplyAdded: {
        const { order, reply } = event.payload;
        const product = productOf(order, 'your order');
        if (reply.role === 'buyer') {
          return [
            {
              toUserId: order.sellerId,
              subject: `New message about an order: ${product}`,
              text: `The buyer (${order.share ? order.email : 'contact details not shared'}) wrote:\n\n${reply.note}\n\nAnswer here: ${this.links.sellerOrder(order.id)}\n`,
              ...(order.share ? { replyTo: order.email } : {}),
            },
          ];
        }
        const supportEmail = event.payload.supportEmail ?? null;
        return [
          {
            ...(order.buyerId ? { toUserId: order.buyerId } : { to: order.email }),
            subject: `New message from the seller: ${product}`,
            text:
              `The seller wrote about your order:\n\n${reply.note}\n\nAnswer here: ${this.links.order(order.id)}\n` +
              `(Sign in, or create an account, with ${order.email}, the address of this order: you come back to the order afterwards.)\n\n` +
              replyHint(supportEmail),
            ...(supportEmail ? { replyTo: supportEmail } : {}),
          },
        ];
      }
      case COMMERCE_EVENTS.orderFulfilled: {
        const { order } = event.payload;
        return [
          {
            ...(order.buyerId ? { toUserId: order.buyerId } : { to: order.email }),
            subject: `Your order is on its way: ${productOf(order, '')}`.trim(),
            text: `Hello,\n\nThe seller marked your order fulfilled.${order.fulfilNote ? `\n\n${order.fulfilNote}` : ''}\n\n${this.links.order(order.id)}\n`,
          },
        ];
      }
      case COMMERCE_EVENTS.requestAccepted: {
        const { request, orderId } = event.payload;
        return [
          {
            toUserId: request.sellerId,
            subject: `Your payment request was accepted: ${request.productName}`,
            text: `${request.email} accepted your request of ${requestWhat(request)}; you will get an email when it is paid.\n\n${this.links.sellerOrder(orderId)}\n`,
          },
        ];
      }
      case COMMERCE_EVENTS.requestDeclined: {
        const { request, reason } = event.payload;
        return [
          {
            toUserId: request.sellerId,
            subject: `Your payment request was declined: ${request.productName}`,
            text:
              `${request.email} declined your request of ${requestWhat(request)}.\n` +
              (reason ? `\nTheir reason:\n${reason}\n` : '\nThey gave no reason.\n') +
              `\n${this.links.request(request.id)}\n`,
          },
        ];
      }
      case COMMERCE_EVENTS.planCharged:
      case COMMERCE_EVENTS.planChargeFailed:
        return this.planMails(event);
      default:
        // An event this listener has nothing to send for (one added later, heard from the stream).
        return [];
    }
  }

  private paidMails({ order, receipt }: CommerceEventEnvelope<typeof COMMERCE_EVENTS.orderPaid>['payload']): SendMailMessage[] {
    const lines = receipt.items.map((i) => `  ${i.name} × ${i.quantity}  ${formatUsd(i.amount)}`).join('\n');
    return [
      {
        to: order.email,
        subject: `Your receipt ${receipt.number} from ${receipt.sellerName}`,
        text:
          `Thank you for your order.\n\nReceipt ${receipt.number}\nPaid ${formatLongDate(receipt.paidAt, 'UTC')} (UTC)\n\n${lines}\n\n` +
          `Total paid: ${formatUsd(receipt.amount)}\n\nYour order and printable receipt: ${this.links.receipt(order.id)}\n` +
          (receipt.supportEmail ? `Questions: ${receipt.supportEmail}\n` : '') +
          `To write to the seller about this order: ${this.links.order(order.id)}\n\n` +
          replyHint(receipt.supportEmail),
        ...(receipt.supportEmail ? { replyTo: receipt.supportEmail } : {}),
      },
      {
        toUserId: order.sellerId,
        subject: `New order: ${productOf(order, '')} (${formatUsd(order.amount)})`,
        text:
          `You have a new paid order.\n\n${lines}\n\nTotal: ${formatUsd(order.amount)}\nBuyer: ${order.share ? order.email : 'contact details not shared'}\n` +
          (order.note ? `Note: ${order.note}\n` : '') +
          `\nWhat to deliver: ${this.links.sellerOrder(order.id)}\n`,
        ...(order.share ? { replyTo: order.email } : {}),
      },
    ];
  }

  /** A plan's payer is written to at their verified address (asked of identity now, after commit). */
  private async planMails(
    event: CommerceEventEnvelope<typeof COMMERCE_EVENTS.planCharged> | CommerceEventEnvelope<typeof COMMERCE_EVENTS.planChargeFailed>,
  ): Promise<SendMailMessage[]> {
    const { plan, next } = event.payload;
    const email = await this.identity.verifiedEmail(plan.payerId);
    if (!email) return [];
    const price = formatUsd(plan.price);
    const link = this.links.plan(plan.id);
    const nextText = next ? formatLongDate(next, plan.timeZone) : null;
    if (event.name === COMMERCE_EVENTS.planCharged) {
      const { paymentId } = event.payload;
      return [
        {
          to: email,
          subject: `Receipt: ${price} for ${plan.productName}`,
          text: `Your plan paid ${price} for ${plan.productName}.\nPayment: ${paymentId}\nNext charge: ${nextText}\n\nThe plan: ${link}\n`,
        },
      ];
    }
    const { reason, tries } = event.payload;
    return [
      {
        to: email,
        subject: `Your payment of ${price} for ${plan.productName} failed`,
        text:
          `We could not charge your card ${price} for ${plan.productName} (try ${tries}): ${reason}\n` +
          (nextText
            ? `We will try again on ${nextText}. To pay with another card, add it on the billing page and remove this one.\n`
            : 'We tried several times and stopped: the plan is unpaid. Start a new plan with another card to go on.\n') +
          `\nThe plan: ${link}\n`,
      },
    ];
  }
}

/** The buyer's email of one refund: how much, of what, why, and what the receipt says now. */
function refundMail(
  { order, refund, refundedAmount, fully, receipt }: CommerceEventEnvelope<typeof COMMERCE_EVENTS.orderRefunded>['payload'],
  receiptLink: string,
): SendMailMessage {
  const paid = formatUsd(order.amount);
  const what =
    refund.amount === order.amount
      ? `Your payment of ${paid} was refunded in full.`
      : `The seller refunded ${formatUsd(refund.amount)} of your payment of ${paid}${fully ? ': it is now refunded in full.' : '.'}`;
  const total = fully ? '' : `\nRefunded so far: ${formatUsd(refundedAmount)} of ${paid}.`;
  return {
    to: order.email,
    subject: `Refund of your order ${productOf(order, '')}`.trim(),
    text:
      `Hello,\n\n${what}${total}\n${refund.reason ? `\nThe seller's reason: ${refund.reason}\n` : ''}` +
      `\nIt reaches your card within 5 to 10 business days.\n\n` +
      `${receipt ? `Your receipt ${receipt} shows the refund` : 'Your order shows the refund'}: ${receiptLink}\n`,
  };
}

/**
 * What a buyer's email says about answering it: this site receives no mail, so a reply never reaches
 * the order's messages; with the seller's support address as Reply-To it reaches the seller by email.
 */
export function replyHint(supportEmail: string | null): string {
  return supportEmail
    ? `A reply to this email goes to the seller by email (${supportEmail}); it does not appear in the order's messages.\n`
    : `Replies to this email are not read: please write on the order's page (link above).\n`;
}

const lateWhy = (state: string) => (state === 'cancelled' ? 'after the order was cancelled' : 'when the order was paid already');

/** The timeline entries of an event: one per side that has an account. */
export function timelineEntries(event: CommerceDomainEvent): TimelineEntry[] {
  switch (event.name) {
    case COMMERCE_EVENTS.orderPlaced: {
      const { order } = event.payload;
      const what = `${productOf(order, '')} (${formatUsd(order.amount)})`;
      return [
        { userId: buyerAccountOf(order), kind: 'order.placed', title: `You ordered ${what}`, amount: order.amount, orderId: order.id },
        { userId: order.sellerId, kind: 'order.received', title: `New order: ${what}`, amount: order.amount, orderId: order.id },
      ];
    }
    case COMMERCE_EVENTS.requestSent: {
      const { request, payerId, from } = event.payload;
      const what = requestWhat(request);
      return [
        {
          userId: request.sellerId,
          kind: 'request.sent',
          title: `You asked ${request.email} to pay ${what}`,
          amount: request.price,
          requestId: request.id,
        },
        {
          userId: payerId,
          kind: 'request.received',
          title: `${from} asks you to pay ${what}`,
          amount: request.price,
          requestId: request.id,
        },
      ];
    }
    case COMMERCE_EVENTS.requestAccepted: {
      const { request, orderId, payerId } = event.payload;
      const what = requestWhat(request);
      return [
        {
          userId: payerId,
          kind: 'request.accepted',
          title: `You accepted to pay ${what}`,
          amount: request.price,
          requestId: request.id,
          orderId,
        },
        {
          userId: request.sellerId,
          kind: 'request.accepted',
          title: `${request.email} accepted your request of ${what}`,
          amount: request.price,
          requestId: request.id,
          orderId,
        },
      ];
    }
    case COMMERCE_EVENTS.planCreated: {
      const { plan, interval } = event.payload;
      const what = `${formatUsd(plan.price)} ${interval === 'month' ? 'a month' : interval === 'quarter' ? 'a quarter' : 'a year'} for ${plan.productName}`;
      return [
        { userId: plan.payerId, kind: 'plan.created', title: `You started a plan: ${what}`, planId: plan.id },
        { userId: plan.sellerId, kind: 'plan.subscribed', title: `A customer started a plan: ${what}`, planId: plan.id },
      ];
    }
    case COMMERCE_EVENTS.planCancelled: {
      const { plan, by } = event.payload;
      return [
        {
          userId: plan.payerId,
          kind: 'plan.cancelled',
          title: `${by === 'payer' ? 'You' : 'The seller'} cancelled the plan for ${plan.productName}`,
          planId: plan.id,
        },
        {
          userId: plan.sellerId,
          kind: 'plan.cancelled',
          title: `${by === 'payer' ? 'The customer' : 'You'} cancelled the plan for ${plan.productName}`,
          planId: plan.id,
        },
      ];
    }
    case COMMERCE_EVENTS.methodAdded: {
      const { method } = event.payload;
      return [{ userId: method.userId, kind: 'method.added', title: `You saved your ${describeCard(method)}` }];
    }
    case COMMERCE_EVENTS.methodDefaultChanged: {
      const { method } = event.payload;
      return [{ userId: method.userId, kind: 'method.default', title: `Your ${describeCard(method)} is now your default card` }];
    }
    case COMMERCE_EVENTS.methodRemoved: {
      const { method, movedPlans: moved } = event.payload;
      const plans = moved ? `; ${moved === 1 ? 'its plan is' : `its ${moved} plans are`} paid with another card now` : '';
      return [{ userId: method.userId, kind: 'method.removed', title: `You removed your ${describeCard(method)}${plans}` }];
    }
    case COMMERCE_EVENTS.orderPaid: {
      const { order, receipt } = event.payload;
      const what = `${formatUsd(order.amount)} for ${productOf(order, 'an order')}`;
      return [
        {
          userId: buyerAccountOf(order),
          kind: 'order.paid',
          title: `You paid ${formatUsd(order.amount)} to ${receipt.sellerName} for ${productOf(order, 'an order')} (receipt ${receipt.number})`,
          amount: order.amount,
          orderId: order.id,
        },
        {
          userId: order.sellerId,
          kind: 'order.sold',
          title: `Paid: ${what} (receipt ${receipt.number})`,
          amount: order.amount,
          orderId: order.id,
        },
      ];
    }
    case COMMERCE_EVENTS.orderRefunded: {
      const { order, refund } = event.payload;
      const part = refund.amount === order.amount ? '' : ` of ${formatUsd(order.amount)}`;
      return [buyerAccountOf(order), order.sellerId].map((userId) => ({
        userId,
        kind: 'order.refunded' as const,
        title: `Refunded ${formatUsd(refund.amount)}${part} for ${productOf(order, 'an order')}`,
        // A refund takes money back: negative on both sides' timelines.
        amount: -refund.amount,
        orderId: order.id,
      }));
    }
    case COMMERCE_EVENTS.orderLatePaymentRefunded: {
      const { order, amount, orderState } = event.payload;
      const product = productOf(order, 'an order');
      const why = lateWhy(orderState);
      return [
        {
          userId: buyerAccountOf(order),
          kind: 'order.late_refund',
          title: `Refunded automatically: your payment of ${formatUsd(amount)} for ${product} came ${why}`,
          amount,
          orderId: order.id,
        },
        {
          userId: order.sellerId,
          kind: 'order.late_refund',
          title: `Refunded automatically: a payment of ${formatUsd(amount)} for ${product} came ${why}`,
          amount,
          orderId: order.id,
        },
      ];
    }
    case COMMERCE_EVENTS.orderReplyAdded: {
      const { order, reply } = event.payload;
      const product = productOf(order, 'your order');
      const buyerId = reply.role === 'buyer' ? reply.authorId : buyerAccountOf(order);
      return [
        {
          userId: order.sellerId,
          kind: 'order.reply',
          title: reply.role === 'seller' ? `You wrote to the buyer of ${product}` : `The buyer of ${product} wrote to you`,
          orderId: order.id,
        },
        {
          userId: buyerId,
          kind: 'order.reply',
          title: reply.role === 'buyer' ? `You wrote to the seller of ${product}` : `The seller of ${product} wrote to you`,
          orderId: order.id,
        },
      ];
    }
    case COMMERCE_EVENTS.orderFulfilled: {
      const { order } = event.payload;
      return [buyerAccountOf(order), order.sellerId].map((userId) => ({
        userId,
        kind: 'order.fulfilled' as const,
        title: `Fulfilled: ${productOf(order, 'an order')}`,
        orderId: order.id,
      }));
    }
    case COMMERCE_EVENTS.orderCancelled: {
      const { order } = event.payload;
      return [buyerAccountOf(order), order.sellerId].map((userId) => ({
        userId,
        kind: 'order.cancelled' as const,
        title: `Order cancelled: ${productOf(order, '')}`,
        amount: order.amount,
        orderId: order.id,
      }));
    }
    case COMMERCE_EVENTS.requestDeclined: {
      const { request, payerId, reason } = event.payload;
      const what = requestWhat(request);
      const why = reason ? `: “${oneLine(reason, 140)}”` : '';
      return [
        {
          userId: payerId,
          kind: 'request.declined',
          title: `You declined to pay ${what}${why}`,
          amount: request.price,
          requestId: request.id,
        },
        {
          userId: request.sellerId,
          kind: 'request.declined',
          title: `${request.email} declined your request of ${what}${why}`,
          amount: request.price,
          requestId: request.id,
        },
      ];
    }
    case COMMERCE_EVENTS.planCharged: {
      const { plan } = event.payload;
      const price = formatUsd(plan.price);
      return [
        {
          userId: plan.payerId,
          kind: 'plan.charged',
          title: `You paid ${price} for ${plan.productName} (plan)`,
          amount: plan.price,
          planId: plan.id,
        },
        {
          userId: plan.sellerId,
          kind: 'plan.payment',
          title: `A plan paid you ${price} for ${plan.productName}`,
          amount: plan.price,
          planId: plan.id,
        },
      ];
    }
    case COMMERCE_EVENTS.planChargeFailed: {
      const { plan, reason } = event.payload;
      return [
        {
          userId: plan.payerId,
          kind: 'plan.failed',
          title: `Your plan for ${plan.productName} could not charge ${formatUsd(plan.price)}: ${reason}`,
          amount: plan.price,
          planId: plan.id,
        },
      ];
    }
    default:
      return [];
  }
}
