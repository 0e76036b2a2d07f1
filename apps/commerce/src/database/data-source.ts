import { SellerSeen1796300000000 } from './migrations/1796300000000-seller-seen.js';
import { SellerSeenEntity } from '../orders/seller-seen.entity.js';
import { outboxEntities, type ServiceDataSourceOptions } from '@tinkerdesk/persistence';
import { Initial1763856000000 } from './migrations/1763856000000-initial.js';
import { ProviderServices1764200000000 } from './migrations/1764200000000-provider-services.js';
import { Selling1764500000000 } from './migrations/1764500000000-selling.js';
import { RequestsTimeline1764600000000 } from './migrations/1764600000000-requests-timeline.js';
import { PlansMethods1764700000000 } from './migrations/1764700000000-plans-methods.js';
import { LatePayments1764800000000 } from './migrations/1764800000000-late-payments.js';
import { Outbox1764900000000 } from './migrations/1764900000000-outbox.js';
import { PendingMail1765000000000 } from './migrations/1765000000000-pending-mail.js';
import { ProductImages1795651515777 } from './migrations/1795651515777-product-images.js';
import { PendingMailEntity } from '../events/pending-mail.entity.js';
import { ShopSlug1795654917076 } from './migrations/1795654917076-shop-slug.js';
import { SellerDisplayName1796000000000 } from './migrations/1796000000000-seller-display-name.js';
import { PartialRefunds1796100000000 } from './migrations/1796100000000-partial-refunds.js';
import { OrderClaims1796200000000 } from './migrations/1796200000000-order-claims.js';
import { RequestDeclineReason1796400000000 } from './migrations/1796400000000-request-custom-decline.js';
import { IdempotencySweep1797300000000 } from './migrations/1797300000000-idempotency-sweep.js';
import { PaymentCustomerEntity } from '../methods/payment-customer.entity.js';
import { PaymentMethodEntity } from '../methods/payment-method.entity.js';
import { IdempotencyKeyEntity } from '../orders/idempotency-key.entity.js';
import { LatePaymentEntity } from '../orders/late-payment.entity.js';
import { OrderRefundEntity } from '../orders/order-refund.entity.js';
import { OrderReplyEntity } from '../orders/order-reply.entity.js';
import { OrderEntity } from '../orders/order.entity.js';
import { PaymentSessionEntity } from '../orders/payment-session.entity.js';
import { ProviderEventEntity } from '../orders/provider-event.entity.js';
import { ReceiptEntity } from '../orders/receipt.entity.js';
import { PlanChargeEntity } from '../plans/plan-charge.entity.js';
import { PlanEntity } from '../plans/plan.entity.js';
import { ProductImageEntity } from '../products/product-image.entity.js';
import { ProductEntity } from '../products/product.entity.js';
import { PaymentRequestEntity } from '../requests/payment-request.entity.js';
import { SandboxCardEntity } from '../sandbox/sandbox-card.entity.js';
import { SandboxChargeEntity } from '../sandbox/sandbox-charge.entity.js';
import { SandboxRefundEntity } from '../sandbox/sandbox-refund.entity.js';
import { SandboxSessionEntity } from '../sandbox/sandbox-session.entity.js';
import { ProviderServiceEntity } from '../services/provider-service.entity.js';
import { TimelineEventEntity } from '../timeline/timeline-event.entity.js';

/** The schema the commerce service owns; no other service reads it. */
export const SCHEMA = 'commerce';

/** Every table of the schema has its entity (the outbox's come from libs/persistence). */
const ENTITIES = [
  ProviderServiceEntity,
  ProductEntity,
  ProductImageEntity,
  OrderEntity,
  ReceiptEntity,
  OrderReplyEntity,
  OrderRefundEntity,
  PaymentSessionEntity,
  ProviderEventEntity,
  LatePaymentEntity,
  IdempotencyKeyEntity,
  PaymentRequestEntity,
  TimelineEventEntity,
  PaymentMethodEntity,
  PaymentCustomerEntity,
  PlanEntity,
  PlanChargeEntity,
  SandboxSessionEntity,
  SandboxCardEntity,
  SandboxChargeEntity,
  SandboxRefundEntity,
  PendingMailEntity,
  SellerSeenEntity,
];

export function dataSourceOptions(url: string): ServiceDataSourceOptions {
  return {
    url,
    schema: SCHEMA,
    entities: [...ENTITIES, ...outboxEntities(SCHEMA)],
    migrations: [
      Initial1763856000000,
      ProviderServices1764200000000,
      Selling1764500000000,
      RequestsTimeline1764600000000,
      PlansMethods1764700000000,
      LatePayments1764800000000,
      Outbox1764900000000,
      PendingMail1765000000000,
      ProductImages1795651515777,
      ShopSlug1795654917076,
      SellerDisplayName1796000000000,
      PartialRefunds1796100000000,
      OrderClaims1796200000000,
      SellerSeen1796300000000,
      RequestDeclineReason1796400000000,
      IdempotencySweep1797300000000,
    ],
  };
}
