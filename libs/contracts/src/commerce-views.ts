/** Commerce's answers and constants, browser-safe (no Nest, no class-validator). */

/** What GET /v1/users/me may include besides the profile (comma separated). */
export const PROFILE_INCLUDES = ['services'] as const;

/** How long the name buyers see as the seller (a service's displayName) may be. */
export const SELLER_NAME_MAX = 80;

/** A provider service: name, provider, vendor, account, plus provider-specific extras. */
export interface ServiceView {
  id: string;
  name: string;
  /** The name buyers see as the seller (shop or display name); never empty. */
  displayName: string;
  provider: string;
  vendor: string;
  account: string;
  /** The short shop link's slug (`/s/{slug}`), or null while the seller has chosen none. */
  slug: string | null;
  created: string;
  modified: string;
  [extra: string]: unknown;
}

/** The service a shop link names (commerce.shop.resolve). */
export interface ShopAddress {
  userId: string;
  serviceId: string;
}

/** Payment providers that pay a seller: Stripe (Checkout on the seller's connected account), or the built-in sandbox processor. */
export const PAYMENT_PROVIDERS = ['stripe', 'sandbox'] as const;
export type PaymentProviderId = (typeof PAYMENT_PROVIDERS)[number];

/** What a service sells: downloads or other digital goods, a service, or printed mail (sent with a shipping service). */
export const VENDORS = ['digital', 'service', 'mail'] as const;
export type Vendor = (typeof VENDORS)[number];

/** Shipping services of printed mail (docs/api.md "Reference data"). */
export const SHIPPING_SERVICES = [
  'FEDEX_OVERNIGHT',
  'USPS_PRIORITY_EXPRESS',
  'USPS_PRIORITY',
  'USPS_CERTIFIED',
  'USPS_CERTIFIED_RECEIPT',
  'USPS_CERTIFIED_PHYSICAL_RECEIPT',
  'USPS_FIRST_CLASS',
  'USPS_POSTCARD',
  'USPS_NOTECARD',
  'UPS_NEXT_DAY_AIR',
] as const;
export type ShippingService = (typeof SHIPPING_SERVICES)[number];

/** Options of printed mail (docs/api.md "Reference data"). */
export const SHIPPING_OPTIONS = ['singlesided', 'color', 'return_envelope', 'flat', 'livestamp'] as const;
export type ShippingOption = (typeof SHIPPING_OPTIONS)[number];

/** How the pages name each shipping service and option. */
export const SHIPPING_LABELS: Readonly<Record<ShippingService | ShippingOption, string>> = {
  FEDEX_OVERNIGHT: 'FedEx Overnight',
  USPS_PRIORITY_EXPRESS: 'USPS Priority Mail Express',
  USPS_PRIORITY: 'USPS Priority Mail',
  USPS_CERTIFIED: 'USPS Certified Mail',
  USPS_CERTIFIED_RECEIPT: 'USPS Certified Mail with electronic return receipt',
  USPS_CERTIFIED_PHYSICAL_RECEIPT: 'USPS Certified Mail with physical return receipt',
  USPS_FIRST_CLASS: 'USPS First-Class Mail',
  USPS_POSTCARD: 'USPS Postcard',
  USPS_NOTECARD: 'USPS Notecard',
  UPS_NEXT_DAY_AIR: 'UPS Next Day Air',
  singlesided: 'Single-sided',
  color: 'Color',
  return_envelope: 'Return envelope',
  flat: 'Flat (unfolded)',
  livestamp: 'Live stamp',
};

/** The one currency products are sold in; amounts are integer cents everywhere. */
export const CURRENCY = 'USD';

/** Smallest and largest price of a product, in cents (Stripe's USD minimum; $999,999.99). */
export const PRICE_MIN_CENTS = 50;
export const PRICE_MAX_CENTS = 99_999_999;

/**
 * The states of an order (docs/api.md "Order states"; commerce's orders/order-states.ts enforces the
 * transitions): pending (placed, not paid), paid, failed (the last payment try failed; paying again
 * is allowed), fulfilled (the seller delivered), cancelled, refunded.
 */
export const ORDER_STATES = ['pending', 'paid', 'failed', 'fulfilled', 'cancelled', 'refunded'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** States of an order that was paid, so it has a receipt. */
export const RECEIPTED_ORDER_STATES: readonly OrderState[] = ['paid', 'fulfilled', 'refunded'];

/** A postal address (printed mail: where it goes, and where a seller ships from). */
export interface PostalAddress {
  name: string;
  line1: string;
  line2?: string;
  city: string;
  state?: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** What a `mail` product allows, and what a `mail` order chose. */
export interface ShippingChoice {
  service: ShippingService;
  options: ShippingOption[];
  address: PostalAddress;
}

export interface ProductView {
  id: string;
  serviceId: string;
  /** The seller's guid. */
  userId: string;
  name: string;
  description: string;
  /** Cents. */
  price: number;
  currency: typeof CURRENCY;
  /**
   * What buyers see: the https URL the seller gave, or the medium size of the image uploaded to this
   * site (a path under /v1, versioned); null for none.
   */
  image: string | null;
  /** The uploaded image in its sizes (null when the image is an https URL or there is none). */
  images: ProductImages | null;
  active: boolean;
  /** `mail` products: the shipping services and options a buyer may choose. */
  shipping: { services: ShippingService[]; options: ShippingOption[] } | null;
  created: string;
  modified: string;
}

/** The widths (px) an uploaded product image is made in: WebP, fit inside, never enlarged. */
export const PRODUCT_IMAGE_SIZES = { small: 160, medium: 480, large: 1200 } as const;
export type ProductImageSize = keyof typeof PRODUCT_IMAGE_SIZES;
export const PRODUCT_IMAGE_SIZE_NAMES = Object.keys(PRODUCT_IMAGE_SIZES) as ProductImageSize[];

/**
 * The most bytes all sizes of one product image may take together: they cross NATS in one message
 * (base64, 4/3 larger; NATS refuses messages over 1 MiB by default) so a replacement is one transaction.
 */
export const PRODUCT_IMAGE_STORED_MAX_BYTES = 700_000;

/** The version of an uploaded image set: 16 hex digits of the SHA-256 of its sizes. */
export const PRODUCT_IMAGE_VERSION = /^[0-9a-f]{16}$/;

/**
 * The public path of one size of a product's uploaded image: with a version, immutable (a replaced image
 * gets a new version; the old path answers 404); without one, whatever image the product has now.
 */
export const productImagePath = (productId: string, size: ProductImageSize, version?: string): string =>
  version ? `/v1/products/${productId}/image/${version}/${size}` : `/v1/products/${productId}/image/${size}`;

/** One size of an uploaded product image. */
export interface ProductImageVariant {
  /** A path under this site (immutable, versioned). */
  url: string;
  width: number;
  height: number;
}

/** An uploaded product image in its sizes (all WebP). */
export interface ProductImages {
  version: string;
  small: ProductImageVariant;
  medium: ProductImageVariant;
  large: ProductImageVariant;
}

/** NATS answer of commerce.product.image-get: one stored size, base64. */
export interface ProductImageData {
  data: string;
  contentType: 'image/webp';
  /** SHA-256 of the bytes (hex): the strong ETag. */
  etag: string;
  version: string;
}

/** A provider's public page: the service (without its payment account) and its active products. */
export interface StorefrontView {
  service: { id: string; userId: string; name: string; vendor: Vendor; provider: PaymentProviderId; supportEmail: string | null };
  seller: { guid: string; name: string };
  products: ProductView[];
}

/** The answer of POST /v1/users/{guid}/validate. */
export interface AccountValidation {
  provider: PaymentProviderId;
  account: string;
  /** Whether the account exists at the provider and can take charges. */
  valid: boolean;
  /** Why not (or what was checked). */
  reason: string;
}

export interface OrderItem {
  productId: string | null;
  name: string;
  description: string;
  /** Cents, the price when the order was placed. */
  unitPrice: number;
  quantity: number;
  /** Cents. */
  amount: number;
  /**
   * The product's image when it was ordered: its https URL, or the unversioned path of the small size of
   * its uploaded image (whatever image the product has now); null for none; absent on older orders.
   */
  image?: string | null;
}

export interface ReceiptView {
  /** R-<year>-<sequence>, unique. */
  number: string;
  items: OrderItem[];
  /** Cents. */
  amount: number;
  currency: typeof CURRENCY;
  /** When it was paid (ISO) and the same in the long 'LLL' form in the viewer's time zone. */
  paidAt: string;
  date: string;
  timeZone: string;
  seller: { name: string; service: string; supportEmail: string | null };
  /** Where the receipt went: the buyer's address; null for the seller when the buyer did not share it. */
  email: string | null;
}

/**
 * A payment that landed on an order that could no longer take it (cancelled at the same moment, or
 * paid already by another payment): refunded automatically in full. `refund_pending` until the
 * provider has taken the refund (retried until it has).
 */
export interface LatePaymentView {
  /** Cents. */
  amount: number;
  state: 'refund_pending' | 'refunded';
  created: string;
  refundedAt: string | null;
}

/** One refund of an order by its seller (or made at the provider), in cents. */
export interface OrderRefundView {
  id: string;
  /** Cents. */
  amount: number;
  reason: string | null;
  /** When the provider took it (ISO). */
  refundedAt: string;
}

export interface OrderReplyView {
  id: string;
  /** Who wrote it: the buyer or the seller. */
  from: 'buyer' | 'seller';
  note: string;
  created: string;
}

/** How the viewer relates to the order; decides what they may do with it. */
export type OrderRole = 'buyer' | 'seller' | 'visitor';

export interface OrderView {
  id: string;
  state: OrderState;
  serviceId: string;
  serviceName: string;
  sellerId: string;
  /** The name buyers see as the seller: the receipt's once issued (receipts are records), else the service's now. */
  sellerName: string;
  provider: PaymentProviderId;
  vendor: Vendor;
  /** The buyer's address; null for the seller when the buyer did not agree to share it. */
  email: string | null;
  note: string;
  /** The buyer agreed to share their contact details with the seller. */
  share: boolean;
  items: OrderItem[];
  /** Cents. */
  amount: number;
  currency: typeof CURRENCY;
  shipping: ShippingChoice | null;
  /** Why the last payment try failed (state failed). */
  failure: string | null;
  receipt: ReceiptView | null;
  /**
   * Messages between buyer and seller: only for the seller and the buyer (signed in, or signed in
   * with the verified address of an order placed signed out); empty for a visitor holding the link.
   */
  replies: OrderReplyView[];
  /** Payments that came after the order could no longer take them, and their automatic refunds. */
  latePayments: LatePaymentView[];
  role: OrderRole;
  created: string;
  modified: string;
  paidAt: string | null;
  fulfilledAt: string | null;
  /** What the seller wrote when fulfilling (a tracking number, a download link...); null before or without one. */
  fulfilNote: string | null;
  /** Cents refunded so far (several partial refunds add up; equal to amount once refunded in full). */
  refundedAmount: number;
  /** The refunds made, oldest first (refunds still being made at the provider are not listed). */
  refunds: OrderRefundView[];
}

/** POST /v1/orders/{id}/pay: where to send the browser. */
export interface PaymentStart {
  orderId: string;
  provider: PaymentProviderId;
  /** The provider's session id: the {x} of POST /v1/orders/{id}/complete/{x}. */
  sessionId: string;
  /** The hosted pay page (Stripe Checkout, or this site's sandbox pay page). */
  url: string;
}

/** What the seller delivers (GET /v1/fulfillment/{id}/order). */
export interface FulfillmentView {
  order: OrderView;
  /** The buyer's contact, only when they agreed to share it. */
  buyer: { email: string; name: string | null } | null;
  /** `mail`: the shipping service, options and address. */
  shipping: ShippingChoice | null;
  canFulfil: boolean;
}

export interface OrderList {
  orders: OrderView[];
  total: number;
  offset: number;
  limit: number;
}

/** The sandbox processor's hosted pay page (this site's own, with Stripe's test cards). */
export interface SandboxSessionView {
  id: string;
  mode: SandboxSessionMode;
  /** The order paid (payment mode); null when a card is saved. */
  orderId: string | null;
  status: 'open' | 'requires_action' | 'complete' | 'expired';
  productName: string;
  sellerName: string;
  amount: number;
  currency: typeof CURRENCY;
  email: string;
  /** Why the last card was refused, as the page shows it. */
  error: string | null;
  /** Where the browser goes after paying, or when it cancels. */
  successUrl: string;
  cancelUrl: string;
}

/** Test cards of the sandbox (Stripe's): pays, declined, asks for confirmation (3-D Secure). */
export const SANDBOX_CARDS = {
  pays: '4242424242424242',
  declined: '4000000000000002',
  authenticate: '4000002500003155',
  /** Saves (the card is set up) but every charge of it is declined (Stripe's 4000 0000 0000 0341). */
  chargeDeclined: '4000000000000341',
} as const;

/**
 * Why a sandbox session is open: paying an order, or saving a card for later (a plan's charges), as
 * Stripe Checkout's `payment` and `setup` modes.
 */
export type SandboxSessionMode = 'payment' | 'setup';

/** States in which an order may be paid (a pay page opened, a payment applied). */
export const PAYABLE_ORDER_STATES: readonly OrderState[] = ['pending', 'failed'];

/**
 * The states of a payment request (commerce's requests/request-states.ts enforces the transitions):
 * open (sent, not answered), accepted (turned into an order, not paid yet), paid, declined (by the
 * payer), cancelled (by the seller), expired (not answered in time).
 */
export const REQUEST_STATES = ['open', 'accepted', 'paid', 'declined', 'cancelled', 'expired'] as const;
export type RequestState = (typeof REQUEST_STATES)[number];

/** How long a payment request can be answered. */
export const REQUEST_LIFETIME_DAYS = 30;

export interface PaymentRequestView {
  id: string;
  state: RequestState;
  sellerId: string;
  sellerName: string;
  serviceId: string;
  serviceName: string;
  /**
   * What is asked: the product as it was when asked, or a custom amount (`id` null, `name` the
   * seller's description, `price` the amount).
   */
  product: { id: string | null; name: string; description: string; price: number; currency: typeof CURRENCY };
  /** The payer's address (the seller named it). */
  email: string;
  note: string;
  /** The order it became, once accepted. */
  orderId: string | null;
  /** Why the payer declined (plain text), when they said; null otherwise. */
  declineReason: string | null;
  /** How the viewer relates to it. */
  role: 'payer' | 'seller';
  expires: string;
  created: string;
  modified: string;
}

export interface PaymentRequestList {
  requests: PaymentRequestView[];
  total: number;
  offset: number;
  limit: number;
}

/** What happened in an account, recorded by commerce as it happens (GET /v1/timeline). */
export const TIMELINE_KINDS = [
  'order.placed',
  'order.received',
  'order.paid',
  'order.sold',
  'order.reply',
  'order.fulfilled',
  'order.refunded',
  'order.cancelled',
  'order.late_refund',
  'request.sent',
  'request.received',
  'request.accepted',
  'request.declined',
  'plan.created',
  'plan.subscribed',
  'plan.charged',
  'plan.payment',
  'plan.failed',
  'plan.cancelled',
  'method.added',
  'method.default',
  'method.removed',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export interface TimelineEvent {
  id: string;
  kind: TimelineKind;
  /** One line for the list, e.g. "You paid $12.50 for Poster". */
  title: string;
  /** Cents, when money moved or was asked for. */
  amount: number | null;
  orderId: string | null;
  requestId: string | null;
  planId: string | null;
  created: string;
}

export interface TimelinePage {
  events: TimelineEvent[];
  total: number;
  offset: number;
  limit: number;
}

/** The reference lists served at GET /v1/reference/{name} (docs/api.md "Reference data"). */
export const REFERENCE_NAMES = [
  'reminder-days',
  'time-zones',
  'ca-provinces',
  'us-states',
  'countries',
  'locales',
  'shipping-services',
] as const;
export type ReferenceName = (typeof REFERENCE_NAMES)[number];

/** A reminder day of a plan: first, 2nd … 28th, last; `index` is the day of the month, -1 for the last. */
export interface ReminderDayRef {
  index: number;
  value: string;
  label: string;
}
export interface TimeZoneRef {
  name: string;
  label: string;
  /** Minutes from UTC now. */
  offset: number;
}
export interface RegionRef {
  /** Postal abbreviation (CA, ON...). */
  abbreviation: string;
  name: string;
  /** ISO 3166-2 code; null for the US military codes (USPS only). */
  code: string | null;
  kind: 'state' | 'district' | 'territory' | 'military' | 'province';
}
export interface CountryRef {
  name: string;
  'alpha-2': string;
  'alpha-3': string;
  'country-code': string;
  'iso_3166-2': string;
  /** UN M49 codes ('' where M49 places none: Antarctica, and Taiwan, which M49 does not list). */
  'region-code': string;
  'sub-region-code': string;
}
export interface LocaleRef {
  lang: string;
  locale: string;
  label: string;
}
export interface ShippingServiceRef {
  value: ShippingService;
  label: string;
  /** For a select: the same as an option. */
  option: { value: ShippingService; label: string };
  allowedOptions: Array<{ value: ShippingOption; label: string }>;
}

export type ReferenceData =
  | { name: 'reminder-days'; items: ReminderDayRef[] }
  | { name: 'time-zones'; items: TimeZoneRef[] }
  | { name: 'ca-provinces'; items: RegionRef[] }
  | { name: 'us-states'; items: RegionRef[] }
  | { name: 'countries'; items: CountryRef[] }
  | { name: 'locales'; items: LocaleRef[] }
  | { name: 'shipping-services'; items: ShippingServiceRef[] };

/** How often a plan charges: every month, every three months, every year (on its reminder day). */
export const PLAN_INTERVALS = ['month', 'quarter', 'year'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];
export const PLAN_INTERVAL_MONTHS: Record<PlanInterval, number> = { month: 1, quarter: 3, year: 12 };

/**
 * The states of a plan: active (charging on schedule), past_due (a charge failed and is being
 * retried), unpaid (every retry failed: no more charges), cancelled (by the payer or the seller).
 */
export const PLAN_STATES = ['active', 'past_due', 'unpaid', 'cancelled'] as const;
export type PlanState = (typeof PLAN_STATES)[number];

/** A failed charge is tried again this many hours after each failure (Stripe's Smart Retries keep a similar pace). */
export const PLAN_RETRY_HOURS = [1, 24, 72] as const;

/** A calendar choice (a plan's first charge) must be at least this many minutes ahead. */
export const CALENDAR_MIN_GAP_MINUTES = 5;

/** The furthest a plan's first charge may be. */
export const PLAN_MAX_START_DAYS = 366;

/** One charge of a plan (one period). */
export interface PlanChargeView {
  id: string;
  /** 0 for the first charge, then 1, 2 … */
  period: number;
  /** When it was due. */
  due: string;
  state: 'paid' | 'failed';
  /** Cents. */
  amount: number;
  /** Tries made for this period. */
  attempts: number;
  /** Why the last try failed. */
  error: string | null;
  created: string;
}

/** A saved card, as the payer sees it (brand and last 4 only: the number stays at the provider). */
export interface PaymentInstrumentView {
  id: string;
  provider: PaymentProviderId;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  default: boolean;
  /** Live plans (active or past due) this card pays for. */
  plans: number;
  created: string;
}

export interface PaymentInstrumentList {
  instruments: PaymentInstrumentView[];
  /** Where a new card can be kept, the default first: stripe when the site has Stripe set up; the sandbox (test cards) always. */
  providers: PaymentProviderId[];
}

/** A provider's page where the payer saves a card (Stripe Checkout in setup mode, or the sandbox's page). */
export interface PaymentSetupView {
  id: string;
  provider: PaymentProviderId;
  url: string;
}

/** A recurring payment for a product (GET /v1/plans). */
export interface PlanView {
  id: string;
  state: PlanState;
  /** Whose plan: payer (you pay) or seller (you are paid). */
  role: 'payer' | 'seller';
  service: { id: string; name: string; provider: PaymentProviderId };
  product: { id: string | null; name: string; price: number; currency: typeof CURRENCY };
  /** The seller and the name buyers see (the service's display name). */
  seller: { guid: string; name: string };
  interval: PlanInterval;
  /** The reminder day's index: the day of the month 1 … 28, or -1 for the last. */
  reminderDay: number;
  /** The first charge. */
  start: string;
  timeZone: string;
  paymentMethod: { id: string; brand: string; last4: string } | null;
  /** The next charge or retry; null when the plan no longer charges. */
  nextCharge: string | null;
  /** Periods paid so far. */
  paidPeriods: number;
  /** Why the last charge failed, while it is retried. */
  lastError: string | null;
  /** The most recent charges, newest first. */
  charges: PlanChargeView[];
  created: string;
  cancelled: string | null;
}

export interface PlanList {
  plans: PlanView[];
}
