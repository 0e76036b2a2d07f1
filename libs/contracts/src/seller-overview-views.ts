import type { CURRENCY, OrderState } from './commerce-views.js';

/**
 * The filters of the seller's order list (GET /v1/fulfillment/orders?filter=): `to_fulfil` paid and not
 * yet fulfilled; `paid` every order that was paid (to fulfil, fulfilled or refunded); `unpaid` placed and
 * not paid (pending, or the last try failed); the others are the order state of that name.
 */
export const SELLER_ORDER_FILTERS = ['to_fulfil', 'paid', 'fulfilled', 'refunded', 'unpaid', 'cancelled'] as const;
export type SellerOrderFilter = (typeof SELLER_ORDER_FILTERS)[number];

/** Money in one currency, in its minor unit (cents). */
export interface EarningsFigures {
  /** What buyers paid. */
  gross: number;
  /** What was given back. */
  refunds: number;
  /** gross − refunds. */
  net: number;
  /** How many paid orders make gross. */
  orders: number;
}

/** A seller's earnings in one currency (amounts of different currencies are never added together). */
export interface CurrencyEarnings {
  currency: typeof CURRENCY;
  /** Orders paid in the current calendar month of `SellerOverviewView.timeZone`. */
  month: EarningsFigures;
  allTime: EarningsFigures;
}

/** One order in the seller's lists: what the lists show, read in one query per page. */
export interface SellerOrderSummary {
  id: string;
  state: OrderState;
  serviceId: string;
  serviceName: string;
  /** The first item's name; `itemCount` says whether there are more. */
  title: string;
  itemCount: number;
  /** Cents. */
  amount: number;
  currency: typeof CURRENCY;
  /** The buyer's address, only when they agreed to share it. */
  email: string | null;
  /** The receipt's number once paid (R-2026-000047), else null. */
  receiptNumber: string | null;
  created: string;
  paidAt: string | null;
  fulfilledAt: string | null;
}

/** GET /v1/fulfillment/overview: the seller's earnings, the orders to fulfil and what is new. */
export interface SellerOverviewView {
  /** The zone "this month" is counted in: the profile's, or UTC when the profile has none. */
  timeZone: string;
  /** True when `timeZone` is the profile's (false: UTC, because the profile has no time zone). */
  profileTimeZone: boolean;
  /** The first instant of this month in `timeZone` (ISO). */
  monthStart: string;
  /** One entry per currency sold in, in alphabetical order; empty before the first paid order. */
  earnings: CurrencyEarnings[];
  /** Paid orders not yet fulfilled: how many, and the oldest first (up to 10). */
  toFulfil: { total: number; orders: SellerOrderSummary[] };
  /** When the seller last marked the overview seen (POST /v1/fulfillment/seen); null: never. */
  seenAt: string | null;
  /** Orders paid after `since` (when asked), else after `seenAt` (all paid orders when never seen). */
  newOrders: number;
}

/** GET /v1/fulfillment/orders: a page of the seller's orders, newest first. */
export interface SellerOrderList {
  orders: SellerOrderSummary[];
  total: number;
  offset: number;
  limit: number;
}
