import {
  formatLongDate,
  linkBuilder,
  SELLER_ORDER_FILTERS,
  type SellerOrderFilter,
  type SellerOrderSummary,
  type ServiceView,
} from '@tinkerdesk/contracts/web';
import { Fragment, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { errorText } from '../../../../shared/api';
import { FormError } from '../../../../shared/forms';
import { Pager } from '../../../../shared/Pager';
import { useSellerOrders } from '../../hooks/overview';
import { formatMoney } from '../../money';
import type { SellerOrderFilters } from '../../overview-api';
import { OrderStateBadge } from '../OrderParts';

const links = linkBuilder();
const PAGE = 10;

const FILTER_LABELS: Record<SellerOrderFilter, string> = {
  to_fulfil: 'To fulfil',
  paid: 'Paid (all)',
  fulfilled: 'Fulfilled',
  refunded: 'Refunded',
  unpaid: 'Awaiting payment',
  cancelled: 'Cancelled',
};

/** One order: what was bought (a link to handle it), a New badge, its state; amount, service, buyer, receipt and date below. */
export function OrderLine({ order, isNew, timeZone }: { order: SellerOrderSummary; isNew: boolean; timeZone: string }) {
  const title = order.title || 'Order';
  const more = order.itemCount > 1 ? ` and ${order.itemCount - 1} more` : '';
  // Short facts never break inside (a receipt number, a date); an address may, anywhere.
  const facts: Array<{ text: string; keep: boolean }> = [
    { text: formatMoney(order.amount, order.currency), keep: true },
    { text: order.serviceName || 'a removed service', keep: false },
    { text: order.email ?? 'contact not shared', keep: false },
    { text: order.receiptNumber ?? '', keep: true },
    { text: `${order.paidAt ? 'paid' : 'placed'} ${formatLongDate(order.paidAt ?? order.created, timeZone)}`, keep: false },
  ].filter((f) => f.text);
  return (
    <li className="file-row">
      <span className="file-name">
        <Link to={links.sellerOrder(order.id)}>
          <strong>
            {title}
            {more}
          </strong>
        </Link>
        <small>
          {facts.map((fact, i) => (
            <Fragment key={fact.text}>
              {i > 0 ? ' · ' : ''}
              <span className={fact.keep ? 'keep-together' : undefined}>{fact.text}</span>
            </Fragment>
          ))}
        </small>
      </span>
      <span className="file-actions">
        {isNew ? <span className="badge badge-new">New</span> : null}
        <OrderStateBadge state={order.state} />
      </span>
    </li>
  );
}

/** A search typed into a box, passed on once typing pauses. */
function useSettled(text: string, ms = 300): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), ms);
    return () => clearTimeout(timer);
  }, [text, ms]);
  return settled;
}

/** The seller's orders, newest first: filtered by state, service and a search, paged. */
export function RecentOrders({
  services,
  isNew,
  timeZone,
}: {
  services: ServiceView[];
  isNew: (order: SellerOrderSummary) => boolean;
  timeZone: string;
}) {
  const [filter, setFilter] = useState<SellerOrderFilter | ''>('');
  const [serviceId, setServiceId] = useState('');
  const [search, setSearch] = useState('');
  const q = useSettled(search.trim());
  const filters: SellerOrderFilters = { ...(filter ? { filter } : {}), ...(serviceId ? { serviceId } : {}), ...(q ? { q } : {}) };
  // Other filters start again at the first page.
  const filterKey = JSON.stringify(filters);
  const [paging, setPaging] = useState({ filterKey, offset: 0 });
  const offset = paging.filterKey === filterKey ? paging.offset : 0;
  const query = useSellerOrders(offset, PAGE, filters);
  const list = query.data ?? null;
  const filtered = Boolean(filter || serviceId || q);
  return (
    <div className="orders-list" aria-labelledby="recent-orders-heading">
      <h4 id="recent-orders-heading">Recent orders</h4>
      <div className="overview-filters" role="search" aria-label="Filter orders">
        <label>
          <span>Show</span>
          <select value={filter} onChange={(e) => setFilter(e.target.value as SellerOrderFilter | '')}>
            <option value="">All orders</option>
            {SELLER_ORDER_FILTERS.map((f) => (
              <option key={f} value={f}>
                {FILTER_LABELS[f]}
              </option>
            ))}
          </select>
        </label>
        {services.length > 1 ? (
          <label>
            <span>Service</span>
            <select value={serviceId} onChange={(e) => setServiceId(e.target.value)}>
              <option value="">All services</option>
              {services.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="overview-search">
          <span>Search</span>
          <input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Receipt number or buyer email"
            maxLength={200}
          />
        </label>
      </div>
      <FormError message={query.error ? errorText(query.error) : ''} />
      {list === null ? (
        query.error ? null : (
          <p role="status">Loading orders…</p>
        )
      ) : list.orders.length === 0 ? (
        <p className="empty-state-text">
          {filtered
            ? 'No orders match. Change the filters or the search (buyer emails are searchable only when the buyer shared them).'
            : 'No orders yet. Share your public page: orders appear here when buyers place them.'}
        </p>
      ) : (
        <>
          <ul className="file-list" aria-label="Orders">
            {list.orders.map((order) => (
              <OrderLine key={order.id} order={order} isNew={isNew(order)} timeZone={timeZone} />
            ))}
          </ul>
          <Pager
            offset={offset}
            total={list.total}
            pageSize={PAGE}
            onMove={(next) => setPaging({ filterKey, offset: next })}
            label="Recent orders"
          />
        </>
      )}
    </div>
  );
}
