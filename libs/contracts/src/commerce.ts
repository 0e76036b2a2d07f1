import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsISO8601,
  IsInt,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import {
  CURRENCY,
  ORDER_STATES,
  PAYMENT_PROVIDERS,
  PLAN_INTERVALS,
  PRICE_MAX_CENTS,
  PRICE_MIN_CENTS,
  PRODUCT_IMAGE_SIZE_NAMES,
  PRODUCT_IMAGE_STORED_MAX_BYTES,
  PRODUCT_IMAGE_VERSION,
  PROFILE_INCLUDES,
  SELLER_NAME_MAX,
  SHIPPING_OPTIONS,
  SHIPPING_SERVICES,
  VENDORS,
  type OrderState,
  type PaymentProviderId,
  type PlanInterval,
  type ProductImageSize,
  type ShippingOption,
  type ShippingService,
  type Vendor,
} from './commerce-views.js';
import { ListQueryDto } from './conversion.js';
import { IdempotencyKeyField } from './idempotency.js';
import { Optional } from './input.js';
import { SHOP_SLUG_MAX, SHOP_SLUG_MIN, shopSlugProblem } from './shop-slug.js';

/** HTTP: GET /v1/users/me?include=services */
export class ProfileQueryDto {
  @ApiPropertyOptional({ description: `Comma-separated extras: ${PROFILE_INCLUDES.join(', ')}`, example: 'services' })
  @Optional()
  @Matches(new RegExp(`^(${PROFILE_INCLUDES.join('|')})(,(${PROFILE_INCLUDES.join('|')}))*$`), {
    message: `include must be a comma-separated list of: ${PROFILE_INCLUDES.join(', ')}`,
  })
  include?: string;
}

/** NATS: commerce.service.list */
export class UserServicesMessage {
  @IsUUID('4')
  userId!: string;
}

const NAME_MESSAGE = 'name is required (at most 100 characters)';
const DISPLAY_NAME_MESSAGE = `displayName is required: the name buyers see as the seller (at most ${SELLER_NAME_MAX} characters)`;

/** Stripe's rules for a statement descriptor: 5–22 characters, at least one letter, none of < > \ ' " *. */
export const STATEMENT_DESCRIPTOR = /^(?=.*[A-Za-z])[^<>\\'"*]{5,22}$/;

/** A valid shop link slug (shop-slug.ts); the message says what is wrong in plain words. */
function IsShopSlug(): PropertyDecorator {
  return ValidateBy({
    name: 'isShopSlug',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && shopSlugProblem(value) === undefined,
      defaultMessage: (args?: ValidationArguments) =>
        `slug: ${typeof args?.value === 'string' ? (shopSlugProblem(args.value) ?? 'not a shop link') : 'a shop link is text'}`,
    },
  });
}

/** HTTP and NATS: a postal address. */
export class PostalAddressDto {
  @ApiProperty({ maxLength: 100 })
  @IsString()
  @MinLength(1, { message: 'address name is required' })
  @MaxLength(100)
  name!: string;

  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MinLength(1, { message: 'address line1 is required' })
  @MaxLength(200)
  line1!: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @Optional()
  @IsString()
  @MaxLength(200)
  line2?: string;

  @ApiProperty({ maxLength: 100 })
  @IsString()
  @MinLength(1, { message: 'address city is required' })
  @MaxLength(100)
  city!: string;

  @ApiPropertyOptional({ maxLength: 100, description: 'State, province or region (US: the two-letter code)' })
  @Optional()
  @IsString()
  @MaxLength(100)
  state?: string;

  @ApiProperty({ maxLength: 20 })
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9 -]{1,18}[A-Za-z0-9]$/, { message: 'address postalCode is not a postal code' })
  postalCode!: string;

  @ApiProperty({ example: 'US', description: 'ISO 3166-1 alpha-2' })
  @IsString()
  @Matches(/^[A-Z]{2}$/, { message: 'address country must be a two-letter country code such as US' })
  country!: string;
}

/**
 * HTTP: POST /v1/users/{guid}/services/ and /{serviceId} — `{name, provider, vendor, account, ...extras}`.
 * The extras are checked per provider and vendor by commerce (statement descriptor for Stripe, a
 * shipping origin for `mail`).
 */
export class ServiceDto {
  @ApiProperty({ maxLength: 100, example: 'Print shop' })
  @IsString({ message: NAME_MESSAGE })
  @MinLength(1, { message: NAME_MESSAGE })
  @MaxLength(100, { message: NAME_MESSAGE })
  name!: string;

  @ApiProperty({
    maxLength: SELLER_NAME_MAX,
    example: 'Riso Corner',
    description:
      'The name buyers see as the seller (shop or display name): on the storefront, request and order pages, receipts, emails ' +
      'and timelines. Required, trimmed, not only spaces. A receipt keeps the name it was issued with.',
  })
  @IsString({ message: DISPLAY_NAME_MESSAGE })
  @Matches(/\S/, { message: DISPLAY_NAME_MESSAGE })
  @MaxLength(SELLER_NAME_MAX, { message: DISPLAY_NAME_MESSAGE })
  displayName!: string;

  @ApiProperty({ enum: PAYMENT_PROVIDERS, description: 'The payment provider that pays the seller' })
  @IsIn(PAYMENT_PROVIDERS, { message: `provider must be one of: ${PAYMENT_PROVIDERS.join(', ')}` })
  provider!: PaymentProviderId;

  @ApiProperty({ enum: VENDORS, description: 'The kind of goods: digital, service, or printed mail' })
  @IsIn(VENDORS, { message: `vendor must be one of: ${VENDORS.join(', ')}` })
  vendor!: Vendor;

  @ApiProperty({ description: "The seller's account at the provider: a Stripe connected account id (acct_...), or sandbox_<name>" })
  @IsString({ message: 'account is required' })
  @MinLength(1, { message: 'account is required' })
  @MaxLength(64, { message: 'account may have at most 64 characters' })
  account!: string;

  @ApiPropertyOptional({ description: 'Stripe: what the buyer’s card statement shows (5–22 characters)' })
  @Optional()
  @IsString()
  @Matches(STATEMENT_DESCRIPTOR, {
    message: 'statementDescriptor must have 5 to 22 characters, at least one letter, and none of < > \\ \' " *',
  })
  statementDescriptor?: string;

  @ApiPropertyOptional({ description: 'Where buyers write with questions (shown on receipts)' })
  @Optional()
  @IsEmail({}, { message: 'supportEmail must be a valid email address' })
  @MaxLength(254)
  supportEmail?: string;

  @ApiPropertyOptional({ type: PostalAddressDto, description: '`mail`: where the printed mail is sent from (required for mail)' })
  @Optional()
  @ValidateNested()
  @Type(() => PostalAddressDto)
  shippingOrigin?: PostalAddressDto;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: SHOP_SLUG_MIN,
    maxLength: SHOP_SLUG_MAX,
    example: 'print-shop',
    description:
      'The short shop link /s/{slug}: lowercase a–z, 0–9 and single hyphens, unique across the site, not a reserved word. ' +
      'Left out: unchanged; null: removed. A changed or removed slug is free for anyone at once (it does not redirect).',
  })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsShopSlug()
  slug?: string | null;
}

export class ServiceParamsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'guid must be a UUID' })
  guid!: string;
}

export class ServiceIdParamsDto extends ServiceParamsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'serviceId must be a UUID' })
  serviceId!: string;
}

/** NATS: commerce.service.save — create (no serviceId) or update one of the owner's services. */
export class SaveServiceMessage extends ServiceDto {
  @IsUUID('4')
  userId!: string;

  @Optional()
  @IsUUID('4')
  serviceId?: string;

  /** A create's Idempotency-Key (an update has none: saving the same service twice changes nothing more). */
  @IdempotencyKeyField()
  idempotencyKey?: string;
}

/** HTTP: POST /v1/users/{guid}/validate */
export class ValidateAccountDto {
  @ApiProperty({ enum: PAYMENT_PROVIDERS })
  @IsIn(PAYMENT_PROVIDERS, { message: `provider must be one of: ${PAYMENT_PROVIDERS.join(', ')}` })
  provider!: PaymentProviderId;

  @ApiProperty({ description: 'The account at the provider' })
  @IsString({ message: 'account is required' })
  @MinLength(1, { message: 'account is required' })
  @MaxLength(64, { message: 'account may have at most 64 characters' })
  account!: string;
}

/** The shipping a `mail` product allows. */
export class ProductShippingDto {
  @ApiProperty({ enum: SHIPPING_SERVICES, isArray: true })
  @IsArray()
  @ArrayMinSize(1, { message: 'shipping.services needs at least one shipping service' })
  @ArrayUnique()
  @IsIn(SHIPPING_SERVICES, { each: true, message: `shipping.services may hold: ${SHIPPING_SERVICES.join(', ')}` })
  services!: ShippingService[];

  @ApiProperty({ enum: SHIPPING_OPTIONS, isArray: true })
  @IsArray()
  @ArrayUnique()
  @IsIn(SHIPPING_OPTIONS, { each: true, message: `shipping.options may hold: ${SHIPPING_OPTIONS.join(', ')}` })
  options!: ShippingOption[];
}

/**
 * HTTP: the product fields. Creating needs name and price (commerce checks it); an update changes
 * only the fields sent.
 */
export class ProductDto {
  @ApiPropertyOptional({ maxLength: 120 })
  @Optional()
  @IsString()
  @MinLength(1, { message: 'name is required (at most 120 characters)' })
  @MaxLength(120, { message: 'name is required (at most 120 characters)' })
  name?: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  @Optional()
  @IsString()
  @MaxLength(2000, { message: 'description may have at most 2000 characters' })
  description?: string;

  @ApiPropertyOptional({ minimum: PRICE_MIN_CENTS, maximum: PRICE_MAX_CENTS, description: 'Cents (USD)' })
  @Optional()
  @IsInt({ message: 'price must be a whole number of cents' })
  @Min(PRICE_MIN_CENTS, { message: `price must be at least ${PRICE_MIN_CENTS} cents` })
  @Max(PRICE_MAX_CENTS, { message: `price may be at most ${PRICE_MAX_CENTS} cents` })
  price?: number;

  @ApiPropertyOptional({ enum: [CURRENCY], description: `Only ${CURRENCY} (the default)` })
  @Optional()
  @IsIn([CURRENCY], { message: `currency must be ${CURRENCY}` })
  currency?: typeof CURRENCY;

  @ApiPropertyOptional({ type: String, format: 'uri', nullable: true, description: 'An https image URL; null removes it' })
  @ValidateIf((_o: object, v: unknown) => v !== undefined && v !== null)
  @IsUrl({ protocols: ['https'], require_protocol: true, require_tld: true }, { message: 'image must be an https URL' })
  @MaxLength(2048)
  image?: string | null;

  @ApiPropertyOptional({ description: 'For sale (default true); false deactivates it' })
  @Optional()
  @IsBoolean({ message: 'active must be true or false' })
  active?: boolean;

  @ApiPropertyOptional({ type: ProductShippingDto, description: '`mail` products: the shipping services and options buyers may choose' })
  @Optional()
  @ValidateNested()
  @Type(() => ProductShippingDto)
  shipping?: ProductShippingDto;
}

export class ProductsQueryDto {
  @ApiPropertyOptional({
    enum: VENDORS,
    description: 'Only when the service sells this kind of goods (its vendor); otherwise the list is empty',
  })
  @Optional()
  @IsIn(VENDORS, { message: `servicetype must be one of: ${VENDORS.join(', ')}` })
  servicetype?: Vendor;
}

export class ProductsParamsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'id must be a UUID' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'sid must be a UUID' })
  sid!: string;
}

export class ProductParamsDto extends ProductsParamsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'pid must be a UUID' })
  pid!: string;
}

/** NATS: commerce.product.list (public: active only, unless the owner asks) */
export class ListProductsMessage {
  @IsUUID('4')
  userId!: string;

  @IsUUID('4')
  serviceId!: string;

  @Optional()
  @IsIn(VENDORS)
  servicetype?: Vendor;

  /** The signed-in viewer: the owner also sees inactive products. */
  @Optional()
  @IsUUID('4')
  viewerId?: string;
}

/** NATS: commerce.product.get */
export class GetProductMessage {
  @IsUUID('4')
  userId!: string;

  @IsUUID('4')
  serviceId!: string;

  @IsUUID('4')
  productId!: string;

  @Optional()
  @IsUUID('4')
  viewerId?: string;
}

/** NATS: commerce.product.save — create (no productId) or update (only the fields sent change). */
export class SaveProductMessage extends ProductDto {
  @IsUUID('4')
  ownerId!: string;

  @IsUUID('4')
  serviceId!: string;

  @Optional()
  @IsUUID('4')
  productId?: string;

  /** A create's Idempotency-Key (an update has none: the same change again changes nothing more). */
  @IdempotencyKeyField()
  idempotencyKey?: string;
}

/** NATS: commerce.product.delete */
export class DeleteProductMessage {
  @IsUUID('4')
  ownerId!: string;

  @IsUUID('4')
  serviceId!: string;

  @IsUUID('4')
  productId!: string;
}

/** HTTP: GET /v1/shops/{slug} */
export class ShopSlugParamsDto {
  @ApiProperty({ example: 'print-shop', description: 'The shop link a seller chose' })
  @IsString()
  @MaxLength(200)
  slug!: string;
}

/** NATS: commerce.shop.resolve — the service a shop link names. */
export class ResolveShopMessage {
  @IsString()
  @MaxLength(200)
  slug!: string;
}

/** HTTP: a product by its id alone (its image routes). */
export class ProductIdParamsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'id must be a UUID' })
  id!: string;
}

/** HTTP: one size of a product's image, the current one or (with a version) an immutable one. */
export class ProductImageFileParamsDto extends ProductIdParamsDto {
  @ApiProperty({ enum: PRODUCT_IMAGE_SIZE_NAMES })
  @IsIn(PRODUCT_IMAGE_SIZE_NAMES, { message: `size must be one of: ${PRODUCT_IMAGE_SIZE_NAMES.join(', ')}` })
  size!: ProductImageSize;
}

export class ProductImageVersionParamsDto extends ProductImageFileParamsDto {
  @ApiProperty({ pattern: PRODUCT_IMAGE_VERSION.source, description: "The version in the product view's image URLs" })
  @Matches(PRODUCT_IMAGE_VERSION, { message: 'version must be 16 hexadecimal digits (from the product view)' })
  version!: string;
}

/** One size of an image the gateway decoded, bounded and re-encoded as WebP, in base64. */
export class ProductImageVariantDto {
  @IsIn(PRODUCT_IMAGE_SIZE_NAMES)
  size!: ProductImageSize;

  @IsInt()
  @Min(1)
  @Max(10_000)
  width!: number;

  @IsInt()
  @Min(1)
  @Max(10_000)
  height!: number;

  @IsString()
  @MinLength(1)
  @MaxLength(Math.ceil(PRODUCT_IMAGE_STORED_MAX_BYTES / 3) * 4)
  data!: string;
}

/** NATS: commerce.product.image-store — every size of the new image at once (it replaces the old set whole). */
export class StoreProductImageMessage {
  @IsUUID('4')
  ownerId!: string;

  @IsUUID('4')
  productId!: string;

  @IsArray()
  @ArrayMinSize(PRODUCT_IMAGE_SIZE_NAMES.length)
  @ArrayMaxSize(PRODUCT_IMAGE_SIZE_NAMES.length)
  @ValidateNested({ each: true })
  @Type(() => ProductImageVariantDto)
  variants!: ProductImageVariantDto[];
}

/** NATS: commerce.product.image-delete */
export class DeleteProductImageMessage {
  @IsUUID('4')
  ownerId!: string;

  @IsUUID('4')
  productId!: string;
}

/** NATS: commerce.product.image-get (public) — one size, of the given version or the current one. */
export class GetProductImageMessage {
  @IsUUID('4')
  productId!: string;

  @IsIn(PRODUCT_IMAGE_SIZE_NAMES)
  size!: ProductImageSize;

  @Optional()
  @Matches(PRODUCT_IMAGE_VERSION)
  version?: string;
}

/** NATS: commerce.storefront.get */
export class StorefrontMessage {
  @IsUUID('4')
  userId!: string;

  @IsUUID('4')
  serviceId!: string;
}

/** `mail` orders: the shipping service and options chosen, and where to send it. */
export class ShippingChoiceDto {
  @ApiProperty({ enum: SHIPPING_SERVICES })
  @IsIn(SHIPPING_SERVICES, { message: `shipping.service must be one of: ${SHIPPING_SERVICES.join(', ')}` })
  service!: ShippingService;

  @ApiProperty({ enum: SHIPPING_OPTIONS, isArray: true })
  @IsArray()
  @ArrayUnique()
  @IsIn(SHIPPING_OPTIONS, { each: true, message: `shipping.options may hold: ${SHIPPING_OPTIONS.join(', ')}` })
  options!: ShippingOption[];

  @ApiProperty({ type: PostalAddressDto })
  @ValidateNested()
  @Type(() => PostalAddressDto)
  address!: PostalAddressDto;
}

/** HTTP: POST /v1/users/{id}/services/{sid}/order — `{product, email, note, share}` (docs/api.md#selling-services-products-orders-payment-and-receipts). */
export class OrderDto {
  @ApiProperty({ format: 'uuid', description: 'The product id' })
  @IsUUID('4', { message: 'product must be a product id (UUID)' })
  product!: string;

  @ApiProperty({ description: 'Where the receipt goes' })
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email!: string;

  @ApiPropertyOptional({ maxLength: 2000, description: 'A note to the seller' })
  @Optional()
  @IsString()
  @MaxLength(2000, { message: 'note may have at most 2000 characters' })
  note?: string;

  @ApiPropertyOptional({ description: "The buyer's consent to share their contact details with the seller (default false)" })
  @Optional()
  @IsBoolean({ message: 'share must be true or false' })
  share?: boolean;

  @ApiPropertyOptional({ type: ShippingChoiceDto, description: '`mail` products: required' })
  @Optional()
  @ValidateNested()
  @Type(() => ShippingChoiceDto)
  shipping?: ShippingChoiceDto;
}

/** NATS: commerce.order.create */
export class CreateOrderMessage extends OrderDto {
  @IsUUID('4')
  sellerId!: string;

  @IsUUID('4')
  serviceId!: string;

  @Optional()
  @IsUUID('4')
  buyerId?: string;

  @IdempotencyKeyField()
  idempotencyKey?: string;
}

export class OrderIdParamsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'id must be a UUID' })
  id!: string;
}

export class CompleteParamsDto extends OrderIdParamsDto {
  @ApiProperty({ description: "The provider's session id (Stripe: cs_...; sandbox: sbs_...)" })
  @Matches(/^[A-Za-z0-9_]{8,255}$/, { message: 'the session id is not one' })
  x!: string;
}

export class OrderViewQueryDto {
  @ApiPropertyOptional({
    description: 'IANA time zone for dates when signed out (signed-in viewers get their own)',
    example: 'America/New_York',
  })
  @Optional()
  @IsString()
  @MaxLength(64)
  tz?: string;
}

/** NATS: commerce.order.get and the other calls on one order. */
export class OrderMessage {
  @IsUUID('4')
  orderId!: string;

  @Optional()
  @IsUUID('4')
  viewerId?: string;

  /** Time zone of the viewer (dates of the receipt). */
  @Optional()
  @IsString()
  @MaxLength(64)
  timeZone?: string;
}

/** NATS: commerce.order.pay / complete */
export class PayOrderMessage extends OrderMessage {
  @Optional()
  @IsString()
  @MaxLength(255)
  idempotencyKey?: string;
}

/** HTTP: POST /v1/orders/{id}/refund (both optional: refunds what remains, without a reason). */
export class RefundOrderDto {
  @ApiPropertyOptional({ minimum: 1, description: 'Cents to refund, at most what remains to refund (default: all that remains)' })
  @Optional()
  @IsInt({ message: 'amount must be a whole number of cents' })
  @Min(1, { message: 'amount must be more than 0' })
  @Max(PRICE_MAX_CENTS, { message: `amount may be at most ${PRICE_MAX_CENTS} cents` })
  amount?: number;

  @ApiPropertyOptional({ maxLength: 500, description: 'Why, for the buyer (shown on the order and in the refund email)' })
  @Optional()
  @IsString({ message: 'reason must be text' })
  @MaxLength(500, { message: 'reason may have at most 500 characters' })
  reason?: string;
}

/** NATS: commerce.order.refund */
export class RefundOrderMessage extends PayOrderMessage {
  @Optional()
  @IsInt({ message: 'amount must be a whole number of cents' })
  @Min(1, { message: 'amount must be more than 0' })
  @Max(PRICE_MAX_CENTS, { message: `amount may be at most ${PRICE_MAX_CENTS} cents` })
  amount?: number;

  @Optional()
  @IsString({ message: 'reason must be text' })
  @MaxLength(500, { message: 'reason may have at most 500 characters' })
  reason?: string;
}

export class CompleteOrderMessage extends PayOrderMessage {
  @Matches(/^[A-Za-z0-9_]{8,255}$/)
  sessionId!: string;
}

/** HTTP: POST /v1/orders/{id}/reply */
export class ReplyDto {
  @ApiProperty({ maxLength: 2000 })
  @IsString({ message: 'note is required' })
  @MinLength(1, { message: 'note is required' })
  @MaxLength(2000, { message: 'note may have at most 2000 characters' })
  note!: string;
}

export class ReplyMessage extends ReplyDto {
  @IsUUID('4')
  orderId!: string;

  @IsUUID('4')
  viewerId!: string;

  @IdempotencyKeyField()
  idempotencyKey?: string;
}

/** HTTP: POST /v1/fulfillment/{id}/fulfilled */
export class FulfilDto {
  @ApiPropertyOptional({ maxLength: 2000, description: 'A note to the buyer (a tracking number, a download link...)' })
  @Optional()
  @IsString()
  @MaxLength(2000)
  note?: string;
}

export class FulfilMessage extends FulfilDto {
  @IsUUID('4')
  orderId!: string;

  @IsUUID('4')
  viewerId!: string;
}

/** HTTP: GET /v1/fulfillment (the seller's incoming orders) */
export class OrdersQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ORDER_STATES })
  @Optional()
  @IsIn(ORDER_STATES, { message: `state must be one of: ${ORDER_STATES.join(', ')}` })
  state?: OrderState;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'true: only orders that were paid (they have a receipt)' })
  @Optional()
  @IsIn(['true', 'false'], { message: 'receipts must be true or false' })
  receipts?: 'true' | 'false';
}

/** NATS: commerce.order.list — the orders the viewer sold (role seller) or bought (role buyer). */
export class ListOrdersMessage extends OrdersQueryDto {
  @IsUUID('4')
  viewerId!: string;

  @IsIn(['buyer', 'seller'])
  role!: 'buyer' | 'seller';
}

/** NATS: commerce.webhook.stripe — the raw body (exactly as received) and its Stripe-Signature header. */
export class StripeWebhookMessage {
  @IsString()
  @MaxLength(1_000_000)
  payload!: string;

  @IsString()
  @MaxLength(2000)
  signature!: string;
}

/** HTTP: POST /v1/sandbox/sessions/{id}/pay — a card on the sandbox's hosted pay page. */
export class SandboxCardDto {
  @ApiProperty({ example: '4242 4242 4242 4242' })
  @IsString()
  @Matches(/^[0-9 ]{12,23}$/, { message: 'Your card number is invalid.' })
  number!: string;

  @ApiProperty({ example: '12/34' })
  @IsString()
  @Matches(/^(0[1-9]|1[0-2]) ?\/ ?[0-9]{2}$/, { message: 'Your card’s expiration date is invalid.' })
  expiry!: string;

  @ApiProperty({ example: '123' })
  @IsString()
  @Matches(/^[0-9]{3,4}$/, { message: 'Your card’s security code is invalid.' })
  cvc!: string;
}

export class SandboxSessionParamsDto {
  @ApiProperty()
  @Matches(/^sbs_[A-Za-z0-9]{16,64}$/, { message: 'id is not a sandbox session id' })
  id!: string;
}

export class SandboxAuthenticateDto {
  @ApiProperty({ description: 'The 3-D Secure challenge: complete or fail it' })
  @IsBoolean({ message: 'approve must be true or false' })
  approve!: boolean;
}

export class SandboxSessionMessage {
  @Matches(/^sbs_[A-Za-z0-9]{16,64}$/)
  sessionId!: string;
}

export class SandboxPayMessage extends SandboxCardDto {
  @Matches(/^sbs_[A-Za-z0-9]{16,64}$/)
  sessionId!: string;
}

export class SandboxAuthenticateMessage extends SandboxAuthenticateDto {
  @Matches(/^sbs_[A-Za-z0-9]{16,64}$/)
  sessionId!: string;
}

/** The longest custom description of a payment request (as long as a product's name: it names the order's item). */
export const REQUEST_DESCRIPTION_MAX = 120;
/** The longest reason a payer gives when declining a payment request. */
export const DECLINE_REASON_MAX = 500;
/** Plain text on one line: no line breaks or other control characters. */
const ONE_LINE = /^\P{Cc}*$/u;
/** Plain text: line breaks and tabs, no other control characters. */
const PLAIN_TEXT = /^(?:[\t\n\r]|\P{Cc})*$/u;
const withoutProduct = (o: { product?: unknown }) => o.product === undefined;

/**
 * HTTP: POST /v1/requests — the seller asks a person by email to pay for one of their products, or
 * a custom amount with a description (no product): `product`, or `amount` and `description`.
 */
export class CreateRequestDto {
  @ApiProperty({ description: "The payer's email address; the request is sent there" })
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email!: string;

  @ApiPropertyOptional({ maxLength: 2000, description: 'A note to the payer' })
  @Optional()
  @IsString()
  @MaxLength(2000, { message: 'note may have at most 2000 characters' })
  note?: string;

  @ApiProperty({ format: 'uuid', description: 'One of your services' })
  @IsUUID('4', { message: 'service must be a service id (UUID)' })
  service!: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'An active product of that service; or leave it out and ask a custom amount' })
  @Optional()
  @IsUUID('4', { message: 'product must be a product id (UUID)' })
  product?: string;

  @ApiPropertyOptional({
    minimum: PRICE_MIN_CENTS,
    maximum: PRICE_MAX_CENTS,
    description: 'A custom amount in cents (USD), without a product (then description is required)',
  })
  // The checks run bottom up: the first message in the detail is the first that failed.
  @ValidateIf(withoutProduct)
  @Max(PRICE_MAX_CENTS, { message: `amount may be at most ${PRICE_MAX_CENTS} cents` })
  @Min(PRICE_MIN_CENTS, { message: `amount must be at least ${PRICE_MIN_CENTS} cents` })
  @IsInt({ message: 'amount must be a whole number of cents (or choose a product)' })
  amount?: number;

  @ApiPropertyOptional({
    maxLength: REQUEST_DESCRIPTION_MAX,
    description: 'What the custom amount is for (plain text, one line), without a product; it names the order and the receipt',
  })
  @ValidateIf(withoutProduct)
  @Matches(ONE_LINE, { message: 'description must be one line of plain text' })
  @MaxLength(REQUEST_DESCRIPTION_MAX, { message: `description may have at most ${REQUEST_DESCRIPTION_MAX} characters` })
  @Matches(/\S/, { message: 'description is required without a product: what the amount is for' })
  @IsString({ message: 'description is required without a product: what the amount is for' })
  description?: string;
}

export class CreateRequestMessage extends CreateRequestDto {
  @IsUUID('4')
  sellerId!: string;

  @IdempotencyKeyField()
  idempotencyKey?: string;
}

export class RequestKeyQueryDto {
  @ApiPropertyOptional({ description: "The key of the emailed link: it shows the payer's own request without signing in" })
  @Optional()
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'key is not a request key' })
  key?: string;
}

/** NATS: commerce.request.{get,decline,cancel} */
export class RequestMessage {
  @IsUUID('4')
  requestId!: string;

  @Optional()
  @IsUUID('4')
  viewerId?: string;

  @Optional()
  @Matches(/^[A-Za-z0-9_-]{43}$/)
  key?: string;
}

/** The checks of a decline's reason (the checks run bottom up: the first message is the first that failed). */
function DeclineReason(): PropertyDecorator {
  const checks = [
    IsString({ message: 'reason must be text' }),
    MaxLength(DECLINE_REASON_MAX, { message: `reason may have at most ${DECLINE_REASON_MAX} characters` }),
    Matches(PLAIN_TEXT, { message: 'reason must be plain text' }),
    Optional(),
  ];
  return (target, key) => checks.forEach((check) => check(target, key));
}

/** HTTP: POST /v1/requests/{id}/decline — an optional reason, shown to the seller. */
export class DeclineRequestDto {
  @ApiPropertyOptional({ maxLength: DECLINE_REASON_MAX, description: 'Why you decline (plain text); the seller sees it' })
  @DeclineReason()
  reason?: string;
}

/** NATS: commerce.request.decline */
export class DeclineRequestMessage extends RequestMessage {
  @DeclineReason()
  reason?: string;
}

/** HTTP: POST /v1/requests/{id}/accept — `{email, note, share}` (docs/api.md#payment-requests-and-the-timeline-billing). */
export class AcceptRequestDto {
  @ApiProperty({ description: 'Where the receipt goes' })
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email!: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  @Optional()
  @IsString()
  @MaxLength(2000, { message: 'note may have at most 2000 characters' })
  note?: string;

  @ApiPropertyOptional({ description: "The payer's consent to share their contact details with the seller (default false)" })
  @Optional()
  @IsBoolean({ message: 'share must be true or false' })
  share?: boolean;
}

export class AcceptRequestMessage extends AcceptRequestDto {
  @IsUUID('4')
  requestId!: string;

  @Optional()
  @IsUUID('4')
  viewerId?: string;

  @Optional()
  @Matches(/^[A-Za-z0-9_-]{43}$/)
  key?: string;
}

/** HTTP: GET /v1/requests (the caller's sent or received requests) */
export class RequestsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['sent', 'received'], description: 'sent (as the seller, default) or received (as the payer)' })
  @Optional()
  @IsIn(['sent', 'received'], { message: 'box must be sent or received' })
  box?: 'sent' | 'received';
}

export class ListRequestsMessage extends RequestsQueryDto {
  @IsUUID('4')
  viewerId!: string;
}

/** NATS: commerce.timeline.list */
export class TimelineQueryMessage extends ListQueryDto {
  @IsUUID('4')
  userId!: string;
}

/** NATS: commerce.timeline.get */
export class TimelineEventMessage {
  @IsUUID('4')
  userId!: string;

  @IsUUID('4')
  eventId!: string;
}

export class TimelineEventParamsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'id must be a UUID' })
  id!: string;
}

/** The reminder days' indexes (docs/api.md "Reference data"): the day of the month 1 … 28, or -1 for the last. */
export const REMINDER_DAY_INDEXES: readonly number[] = [...Array.from({ length: 28 }, (_, i) => i + 1), -1];

/** HTTP: POST /v1/plans — a recurring payment for a product, charged on schedule to a saved card. */
export class CreatePlanDto {
  @ApiProperty({ format: 'uuid', description: "The seller's service" })
  @IsUUID('4', { message: 'service must be a service id (UUID)' })
  service!: string;

  @ApiProperty({ format: 'uuid', description: 'An active product of that service (without shipping)' })
  @IsUUID('4', { message: 'product must be a product id (UUID)' })
  product!: string;

  @ApiProperty({ enum: PLAN_INTERVALS, description: 'How often it charges' })
  @IsIn(PLAN_INTERVALS, { message: `interval must be one of ${PLAN_INTERVALS.join(', ')}` })
  interval!: PlanInterval;

  @ApiProperty({
    description: 'The reminder day of each later charge: its index in GET /v1/reference/reminder-days (1 … 28, or -1 for the last)',
    example: 1,
  })
  @IsInt({ message: 'reminderDay must be a reminder day index: 1 … 28, or -1 for the last day' })
  @IsIn(REMINDER_DAY_INDEXES, { message: 'reminderDay must be a reminder day index: 1 … 28, or -1 for the last day' })
  reminderDay!: number;

  @ApiProperty({
    description: 'The first charge (ISO 8601 with an offset): at least 5 minutes ahead; later charges keep its time of day',
    example: '2026-12-01T09:00:00-05:00',
  })
  @IsString()
  @IsISO8601({ strict: true }, { message: 'start must be a date and time (ISO 8601)' })
  @Matches(/(Z|[+-]\d{2}:?\d{2})$/, { message: 'start must say its offset from UTC (Z or ±hh:mm)' })
  start!: string;

  @ApiProperty({ description: 'An IANA time zone: charges happen at the same local time in it', example: 'America/New_York' })
  @IsString()
  @MaxLength(64)
  timeZone!: string;

  @ApiProperty({ format: 'uuid', description: "A saved card (GET /v1/paymentinstruments) of the service's provider" })
  @IsUUID('4', { message: 'paymentMethod must be a payment method id (UUID)' })
  paymentMethod!: string;
}

export class CreatePlanMessage extends CreatePlanDto {
  @IsUUID('4')
  payerId!: string;

  @IdempotencyKeyField()
  idempotencyKey?: string;
}

/** NATS: commerce.plan.{get,cancel} */
export class PlanMessage {
  @IsUUID('4')
  planId!: string;

  @IsUUID('4')
  viewerId!: string;
}

/** HTTP: POST /v1/paymentmethods — open the provider's page that saves a card. */
export class SetupPaymentMethodDto {
  @ApiPropertyOptional({
    enum: PAYMENT_PROVIDERS,
    description: 'Where the card is kept: stripe when this site has Stripe set up, else the sandbox (its test cards)',
  })
  @Optional()
  @IsIn(PAYMENT_PROVIDERS, { message: `provider must be one of ${PAYMENT_PROVIDERS.join(', ')}` })
  provider?: PaymentProviderId;
}

export class SetupPaymentMethodMessage extends SetupPaymentMethodDto {
  @IsUUID('4')
  userId!: string;

  @IdempotencyKeyField()
  idempotencyKey?: string;
}

export class SetupSessionParamsDto {
  @ApiProperty({ description: "The setup page's session id (the success URL's session_id)" })
  @Matches(/^(sbs|cs)_[A-Za-z0-9_]{8,200}$/, { message: 'id is not a setup session id' })
  id!: string;
}

/** NATS: commerce.method.complete — the setup page came back: keep the card it saved. */
export class CompleteSetupMessage {
  @IsUUID('4')
  userId!: string;

  @Matches(/^(sbs|cs)_[A-Za-z0-9_]{8,200}$/)
  sessionId!: string;
}

export class PaymentMethodParamsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'id must be a payment method id (UUID)' })
  id!: string;
}

export class DeletePaymentMethodQueryDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Another of your cards that takes over the live plans this card pays for (needed when it pays for any)',
  })
  @Optional()
  @IsUUID('4', { message: 'replacement must be a payment method id (UUID)' })
  replacement?: string;
}

/** NATS: commerce.method.{default,delete} */
export class PaymentMethodMessage extends DeletePaymentMethodQueryDto {
  @IsUUID('4')
  userId!: string;

  @IsUUID('4')
  methodId!: string;
}
