import { formatLongDate, linkBuilder } from '@tinkerdesk/contracts/web';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { Page } from '../../../shared/Page';
import { session as sessionStore, useSession } from '../../../shared/session/session';
import { RequireAuth } from '../../auth/RequireAuth';
import { NotFoundPage } from '../../info/pages/NotFoundPage';
import { ItemsTable, LatePayments, OrderStateBadge, RepliesThread, ShippingDetails } from '../components/OrderParts';
import { OrderAftercare, RefundForm } from '../components/RefundParts';
import { useFulfillment, useMarkFulfilled, useRefundOrder, useSellerReply, useViewerTimeZone } from '../hooks/orders';

/** /account/orders/{id}: an incoming order as its seller handles it: what to deliver, messages, fulfil, refund. */
export function SellerOrderPage() {
  return (
    <RequireAuth>
      <SellerOrder />
    </RequireAuth>
  );
}

const links = linkBuilder();

const done = (content: string) => () => sessionStore.notify({ tag: 'seller-order', type: 'success', content, timeout: 5000 });

function SellerOrder() {
  const { orderId = '' } = useParams();
  const { token } = useSession();
  const tz = useViewerTimeZone();
  const { data: work, missing, error } = useFulfillment(orderId);
  const fulfil = useMarkFulfilled(orderId);
  const refund = useRefundOrder(orderId);
  const reply = useSellerReply(orderId);
  const [note, setNote] = useState('');

  if (missing) return <NotFoundPage />;
  if (!work || !token) return <Page title="Order">{error ? <FormError message={errorText(error)} /> : <p role="status">Loading…</p>}</Page>;
  const order = work.order;
  const busy = fulfil.isPending || refund.isPending;
  // The last action's refusal (each new action clears the other's), else a failed reload.
  const failure = fulfil.error ?? error;

  function submitFulfil(event: FormEvent) {
    event.preventDefault();
    refund.reset();
    fulfil.mutate(note.trim(), { onSuccess: done('The order is marked fulfilled; the buyer is told by email.') });
  }

  const refunded = () => done('The refund went through; the buyer is told by email.')();

  const refundable = order.state === 'paid' || order.state === 'fulfilled';
  return (
    <Page title={order.items[0]?.name ?? 'Order'} lead={<>Incoming order · {order.serviceName}</>} wide>
      <p>
        <Link to={PATHS.accountSelling}>← All orders</Link>
      </p>
      <section className="card order-summary" aria-labelledby="deliver-heading">
        <div className="section-head">
          <h2 id="deliver-heading">What to deliver</h2>
          <OrderStateBadge state={order.state} />
        </div>
        <ItemsTable items={order.items} amount={order.amount} />
        <LatePayments payments={order.latePayments} state={order.state} />
        <dl className="details">
          <dt>Placed</dt>
          <dd>{formatLongDate(order.created, tz)}</dd>
          {order.paidAt ? (
            <>
              <dt>Paid</dt>
              <dd>{formatLongDate(order.paidAt, tz)}</dd>
            </>
          ) : null}
          <dt>Buyer</dt>
          <dd>
            {work.buyer ? <a href={`mailto:${work.buyer.email}`}>{work.buyer.email}</a> : 'The buyer did not share their contact details.'}
          </dd>
          {order.note ? (
            <>
              <dt>Buyer’s note</dt>
              <dd>{order.note}</dd>
            </>
          ) : null}
        </dl>
        {work.shipping ? <ShippingDetails shipping={work.shipping} /> : null}
        <FormError message={failure ? errorText(failure) : ''} />
        {work.canFulfil ? (
          <form className="form form-flat" onSubmit={submitFulfil}>
            <label htmlFor="fulfil-note">Note to the buyer (optional: a tracking number, a download link…)</label>
            <textarea id="fulfil-note" rows={2} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
            <button type="submit" className="button button-primary align-start" disabled={busy}>
              Mark fulfilled
            </button>
          </form>
        ) : null}
        {refundable ? <RefundForm key={order.refundedAmount} order={order} refund={refund} busy={busy} onDone={refunded} /> : null}
        <p>
          <Link to={links.order(order.id)}>The buyer’s view of this order</Link>
        </p>
      </section>
      <OrderAftercare order={order} timeZone={tz} />
      <RepliesThread replies={order.replies} me="seller" timeZone={tz} send={reply} />
    </Page>
  );
}
