import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsString, IsUUID, MaxLength } from 'class-validator';
import { ListQueryDto } from './conversion.js';
import { Optional } from './input.js';
import { SELLER_ORDER_FILTERS, type SellerOrderFilter } from './seller-overview-views.js';

/** HTTP: GET /v1/fulfillment/overview */
export class SellerOverviewQueryDto {
  @ApiPropertyOptional({
    description: 'Count newOrders as the orders paid after this instant (ISO 8601) instead of after the seen marker',
    example: '2026-11-26T09:00:00.000Z',
  })
  @Optional()
  @IsISO8601({ strict: true }, { message: 'since must be a date and time (ISO 8601)' })
  since?: string;
}

/** NATS: commerce.seller.overview */
export class SellerOverviewMessage extends SellerOverviewQueryDto {
  @IsUUID('4')
  sellerId!: string;

  /** The profile's time zone; absent: the profile has none (UTC). */
  @Optional()
  @IsString()
  @MaxLength(64)
  timeZone?: string;
}

/** HTTP: GET /v1/fulfillment/orders */
export class SellerOrdersQueryDto extends ListQueryDto {
  @ApiPropertyOptional({
    enum: SELLER_ORDER_FILTERS,
    description: 'to_fulfil: paid, not fulfilled; paid: every paid order; unpaid: pending or failed',
  })
  @Optional()
  @IsIn(SELLER_ORDER_FILTERS, { message: `filter must be one of: ${SELLER_ORDER_FILTERS.join(', ')}` })
  filter?: SellerOrderFilter;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the orders of this service of yours' })
  @Optional()
  @IsUUID('4', { message: 'serviceId must be a service id' })
  serviceId?: string;

  @ApiPropertyOptional({ maxLength: 200, description: "A receipt number (or part of it), or the buyer's address where they shared it" })
  @Optional()
  @IsString()
  @MaxLength(200, { message: 'q may have at most 200 characters' })
  q?: string;
}

/** NATS: commerce.seller.orders */
export class SellerOrdersMessage extends SellerOrdersQueryDto {
  @IsUUID('4')
  sellerId!: string;
}

/** NATS: commerce.seller.seen */
export class SellerSeenMessage {
  @IsUUID('4')
  sellerId!: string;
}
