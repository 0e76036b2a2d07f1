import type { ServiceView } from '@tinkerdesk/contracts/web';
import { errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { useSession } from '../../../shared/session/session';
import { useSellerOverview } from '../hooks/overview';
import { useServices } from '../hooks/selling';
import { EarningsTable } from './overview/EarningsTable';
import { OrderLine, RecentOrders } from './overview/OverviewOrders';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The seller's overview (/account#selling; self-contained, for issue 30's routed sections): earnings
 * per currency, the orders to fulfil, the seller's orders with filters, and what is new since the
 * last visit. It refreshes itself every 30 seconds.
 */
export function SellerOverview() {
  const { profile } = useSession();
  const services = (useServices(profile?.guid).data ?? []) as ServiceView[];
  const overview = useSellerOverview();
  const view = overview.data;
  const timeZone = view?.timeZone ?? 'UTC';
  const fresh = view?.newOrders ?? 0;
  return (
    <section className="seller-overview" aria-labelledby="overview-heading">
      <div className="section-head">
        <h3 id="overview-heading">
          Overview
          {fresh > 0 ? <span className="badge badge-new overview-new">{plural(fresh, 'new order', 'new orders')}</span> : null}
        </h3>
      </div>
      <FormError message={overview.error ? errorText(overview.error) : ''} />
      {!view ? (
        overview.error ? null : (
          <p role="status">Loading your overview…</p>
        )
      ) : (
        <>
          <EarningsTable overview={view} />
          <div className="orders-list" aria-labelledby="to-fulfil-heading">
            <h4 id="to-fulfil-heading">To fulfil{view.toFulfil.total > 0 ? ` (${view.toFulfil.total})` : ''}</h4>
            {view.toFulfil.total === 0 ? (
              <p className="empty-state-text">Nothing to fulfil. Paid orders wait here until you mark them fulfilled.</p>
            ) : (
              <ul className="file-list" aria-label="Orders to fulfil">
                {view.toFulfil.orders.map((order) => (
                  <OrderLine key={order.id} order={order} isNew={overview.isNew(order)} timeZone={timeZone} />
                ))}
              </ul>
            )}
            {view.toFulfil.total > view.toFulfil.orders.length ? (
              <p className="muted">
                The {view.toFulfil.orders.length} waiting longest are shown; choose “To fulfil” below to see all {view.toFulfil.total}.
              </p>
            ) : null}
          </div>
        </>
      )}
      <RecentOrders services={services} isNew={overview.isNew} timeZone={timeZone} />
    </section>
  );
}
