import { formatLongDate, formatUsd, linkBuilder, type OrderList } from '@tinkerdesk/contracts/web';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { errorText } from '../../../../shared/api';
import { FormError } from '../../../../shared/forms';
import { Pager } from '../../../../shared/Pager';
import { useSession } from '../../../../shared/session/session';
import { useBoughtOrders } from '../../hooks/selling';
import { OrderStateBadge } from '../OrderParts';

const links = linkBuilder();
const PAGE = 10;

/** A titled page of orders: the list, its error, a pager; `filter` goes next to the title. */
function OrdersList({
  title,
  empty,
  list,
  failure,
  offset,
  onMove,
  link,
  filter,
}: {
  title: string;
  empty: string;
  list: OrderList | null;
  failure: unknown;
  offset: number;
  onMove: (offset: number) => void;
  link: (id: string) => string;
  filter?: ReactNode;
}) {
  const { profile } = useSession();
  const error = failure ? errorText(failure) : '';
  const headingId = title.toLowerCase().replace(/\W+/g, '-');
  return (
    <div className="orders-list" aria-labelledby={headingId}>
      <div className="section-head">
        <h3 id={headingId}>{title}</h3>
        {filter}
      </div>
      <FormError message={error} />
      {list === null ? (
        error ? null : (
          <p role="status">Loading…</p>
        )
      ) : list.orders.length === 0 ? (
        <p className="empty-state-text">{empty}</p>
      ) : (
        <>
          <ul className="file-list">
            {list.orders.map((order) => (
              <li key={order.id} className="file-row">
                <span className="file-name">
                  <Link to={link(order.id)}>
                    <strong>{order.items[0]?.name ?? 'Order'}</strong>
                  </Link>
                  <small>
                    {formatUsd(order.amount)} · {order.email ?? 'contact not shared'} · {formatLongDate(order.created, profile?.tz)}
                  </small>
                </span>
                <OrderStateBadge state={order.state} />
              </li>
            ))}
          </ul>
          <Pager offset={offset} total={list.total} pageSize={PAGE} onMove={onMove} label={title} />
        </>
      )}
    </div>
  );
}

/** What the signed-in user ordered. */
export function BuyerOrders() {
  const [offset, setOffset] = useState(0);
  const query = useBoughtOrders(offset, PAGE);
  return (
    <OrdersList
      title="My orders"
      empty="No orders yet. What you order signed in, or signed out with your confirmed email address, appears here."
      list={query.data ?? null}
      failure={query.error}
      offset={offset}
      onMove={setOffset}
      link={links.order}
    />
  );
}
