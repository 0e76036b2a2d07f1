import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  canonicalTimeZone,
  type SellerOrderFilter,
  type SellerOrderList,
  type SellerOrdersMessage,
  type SellerOrderSummary,
  type SellerOverviewMessage,
  type SellerOverviewView,
  type OrderState,
} from '@tinkerdesk/contracts';
import { ProviderServicesService } from '../services/provider-services.service.js';
import { SalesRepository, type SellerOrderRow, type SellerOrdersQuery } from './sales.repository.js';

/** The states each filter of the seller's list stands for. */
export const FILTER_STATES: Readonly<Record<SellerOrderFilter, readonly OrderState[]>> = {
  to_fulfil: ['paid'],
  paid: ['paid', 'fulfilled', 'refunded'],
  fulfilled: ['fulfilled'],
  refunded: ['refunded'],
  unpaid: ['pending', 'failed'],
  cancelled: ['cancelled'],
};

/** How many orders to fulfil the overview lists (the total says how many there are). */
const TO_FULFIL_SHOWN = 10;

/** Today, for the month boundaries (tests give their own). */
export const SALES_CLOCK = Symbol('SALES_CLOCK');
export type SalesClock = () => Date;

/**
 * The seller's overview: earnings per currency (this month in the seller's time zone, and of all
 * time), the orders to fulfil, the seller's orders filtered and paged, and which of them are new
 * since the seller last looked (the seen marker).
 */
@Injectable()
export class SalesService {
  constructor(
    @Inject(SalesRepository) private readonly sales: SalesRepository,
    @Inject(ProviderServicesService) private readonly services: ProviderServicesService,
    @Inject(SALES_CLOCK) private readonly now: SalesClock,
  ) {}

  async overview(input: SellerOverviewMessage): Promise<SellerOverviewView> {
    const zone = input.timeZone ? canonicalTimeZone(input.timeZone) : undefined;
    const timeZone = zone ?? 'UTC';
    const since = input.since ? new Date(input.since) : undefined;
    const [figures, toFulfil, names] = await Promise.all([
      this.sales.figures(input.sellerId, timeZone, this.now(), since),
      this.sales.sellerOrders({
        sellerId: input.sellerId,
        states: FILTER_STATES.to_fulfil,
        order: 'oldest_paid',
        offset: 0,
        limit: TO_FULFIL_SHOWN,
      }),
      this.serviceNames(input.sellerId),
    ]);
    return {
      timeZone,
      profileTimeZone: zone !== undefined,
      monthStart: figures.monthStart.toISOString(),
      earnings: figures.earnings.map((e) => ({
        currency: e.currency,
        month: { ...e.month, net: e.month.gross - e.month.refunds },
        allTime: { ...e.allTime, net: e.allTime.gross - e.allTime.refunds },
      })),
      toFulfil: { total: toFulfil.total, orders: toFulfil.rows.map((row) => toSummary(row, names)) },
      seenAt: figures.seenAt?.toISOString() ?? null,
      newOrders: figures.newOrders,
    };
  }

  /** A page of the seller's orders; another seller's service id is answered as a missing one. */
  async orders(input: SellerOrdersMessage): Promise<SellerOrderList> {
    const offset = input.offset ?? 0;
    const limit = input.limit ?? 20;
    const names = await this.serviceNames(input.sellerId);
    if (input.serviceId !== undefined && !names.has(input.serviceId)) throw new AppError('NOT_FOUND', 'no such service');
    const query: SellerOrdersQuery = {
      sellerId: input.sellerId,
      ...(input.filter ? { states: FILTER_STATES[input.filter] } : {}),
      ...(input.serviceId ? { serviceId: input.serviceId } : {}),
      ...(input.q ? { search: input.q } : {}),
      order: 'newest',
      offset,
      limit,
    };
    const { rows, total } = await this.sales.sellerOrders(query);
    return { orders: rows.map((row) => toSummary(row, names)), total, offset, limit };
  }

  async markSeen(sellerId: string): Promise<{ seenAt: string }> {
    return { seenAt: (await this.sales.markSeen(sellerId)).toISOString() };
  }

  /** The seller's services by id (one read, whatever the page size). */
  private async serviceNames(sellerId: string): Promise<Map<string, string>> {
    return new Map((await this.services.listForUser(sellerId)).map((s) => [s.id, s.name]));
  }
}

function toSummary(row: SellerOrderRow, names: ReadonlyMap<string, string>): SellerOrderSummary {
  return {
    ...row,
    serviceName: names.get(row.serviceId) ?? '',
    created: row.created.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    fulfilledAt: row.fulfilledAt?.toISOString() ?? null,
  };
}
