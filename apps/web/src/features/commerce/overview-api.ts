/**
 * The seller's overview (issue 29): earnings, orders to fulfil, new orders and the seller's order
 * pages with filters, through the typed client (docs/api.md "The seller's overview").
 */
import type { SellerOrderFilter } from '@tinkerdesk/contracts/web';
import { unwrap, v1 } from '../../shared/api';

/** The filters of the seller's order list; each left out means all. */
export interface SellerOrderFilters {
  filter?: SellerOrderFilter;
  serviceId?: string;
  q?: string;
}

/** `since`: count as new the orders paid after it (the marker read when the visit began). */
export const getSellerOverview = async (since?: string) =>
  (await unwrap(v1.GET('/v1/fulfillment/overview', { params: { query: since ? { since } : {} } }))).overview;

export const getSellerOrders = (offset: number, limit: number, filters: SellerOrderFilters) =>
  unwrap(v1.GET('/v1/fulfillment/orders', { params: { query: { offset, limit, ...filters } } }));

export const markOverviewSeen = () => unwrap(v1.POST('/v1/fulfillment/seen'));
