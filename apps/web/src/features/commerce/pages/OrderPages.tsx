import { formatLongDate, formatUsd, linkBuilder, PAYABLE_ORDER_STATES, type OrderView } from '@tinkerdesk/contracts/web';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { signInPath } from '../../../routes/paths';
import { ApiError, errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { InlineConfirm } from '../../../shared/InlineConfirm';
import { Page } from '../../../shared/Page';
import { session as sessionStore, useSession } from '../../../shared/session/session';
import { NotFoundPage } from '../../info/pages/NotFoundPage';
import { cancelOrder, completeOrder, getOrder, newIdempotencyKey, payOrder, replyToOrder } from '../api';
import { ItemsTable, LatePayments, OrderStateBadge, RepliesThread, ShippingDetails } from '../components/OrderParts';

const links = linkBuilder();

/** The viewer's time zone: the profile's when signed in, the browser's otherwise. */
export function useViewerTimeZone(): string {
  const { profile } = useSession();
  return profile?.tz || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Loads an order as the viewer sees it; 404 (or another account's order) shows the 404 page. */
function useOrder(orderId: string) {
  const { token, ready } = useSession();
  const tz = useViewerTimeZone();
  const [order, setOrder] = useState<OrderView | null>(null);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState('');
  const load = useCallback(
    (): Promise<void> =>
      getOrder(orderId, token ? undefined : tz).then(
        (answer) => {
          setOrder(answer.order);
          setError('');
        },
        (failure: unknown) => {
          if (failure instanceof ApiError && (failure.status === 404 || failure.status === 400)) setMissing(true);
          else setError(errorText(failure));
        },
      ),
    [token, orderId, tz],
  );
  useEffect(() => {
    if (ready) void load();
  }, [ready, load]);
  return { order, setOrder, missing, error, reload: load, token, tz };
}

/** /orders/{id}: the order as its buyer sees it: state, pay, cancel, receipt, messages. */
export function OrderPage() {
  const { orderId = '' } = useParams();
  const { order, setOrder, missing, error, tz } = useOrder(orderId);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState('');
  const [confirmCancel, setConfirmCancel] = useState(false);
  const payKey = useRef(newIdempotencyKey());

  if (missing) return <NotFoundPage />;
  if (!order) {
    return <Page title="Order">{error ? <FormError message={error} /> : <p role="status">Loading…</p>}</Page>;
  }

  async function pay() {
    setBusy(true);
    setActionError('');
    try {
      window.location.assign((await payOrder(orderId, payKey.current)).url);
    } catch (failure) {
      setActionError(errorText(failure));
      setBusy(false);
    }
  }

  async function cancel() {
    setBusy(true);
    setActionError('');
    try {
      setOrder((await cancelOrder(orderId)).order);
      setConfirmCancel(false);
      sessionStore.notify({ tag: 'order', type: 'success', content: 'Your order is cancelled.', timeout: 5000 });
    } catch (failure) {
      setActionError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  const payable = PAYABLE_ORDER_STATES.includes(order.state);
  const party = order.role === 'visitor' ? null : order.role;
  return (
    <Page title={order.items[0]?.name ?? 'Order'} lead={<>From {order.serviceName}</>} wide>
      <section className="card order-summary" aria-labelledby="order-heading">
        <div className="section-head">
          <h2 id="order-heading">Order</h2>
          <OrderStateBadge state={order.state} />
        </div>
        {order.state === 'failed' && order.failure ? (
          <p className="notice notice-error" role="alert">
            {order.failure}
          </p>
        ) : null}
        <ItemsTable items={order.items} amount={order.amount} />
        <LatePayments payments={order.latePayments} state={order.state} />
        <dl className="details">
          <dt>Placed</dt>
          <dd>{formatLongDate(order.created, tz)}</dd>
          <dt>Email</dt>
          <dd>{order.email ?? 'Not shared with the seller'}</dd>
          {order.note ? (
            <>
              <dt>Note</dt>
              <dd>{order.note}</dd>
            </>
          ) : null}
        </dl>
        {order.shipping ? <ShippingDetails shipping={order.shipping} /> : null}
        <FormError message={actionError} />
        {payable && order.role !== 'seller' ? (
          <div className="actions">
            <button type="button" className="button button-primary" disabled={busy} onClick={() => void pay()}>
              {order.state === 'failed' ? `Try another card (${formatUsd(order.amount)})` : `Pay ${formatUsd(order.amount)}`}
            </button>
            {confirmCancel ? (
              <InlineConfirm
                label="Cancel this order?"
                question="Cancel this order?"
                action="Cancel order"
                keep="Keep it"
                busy={busy}
                onConfirm={() => void cancel()}
                onCancel={() => setConfirmCancel(false)}
              />
            ) : (
              <button type="button" className="button button-ghost" onClick={() => setConfirmCancel(true)}>
                Cancel order
              </button>
            )}
          </div>
        ) : null}
      </section>
      {order.receipt ? (
        <section className="card receipt-card" aria-labelledby="receipt-heading">
          <h2 id="receipt-heading">Receipt</h2>
          <dl className="details">
            <dt>Receipt number</dt>
            <dd>{order.receipt.number}</dd>
            <dt>Paid</dt>
            <dd>{order.receipt.date}</dd>
            <dt>Amount</dt>
            <dd>{formatUsd(order.receipt.amount)}</dd>
          </dl>
          <Link className="button align-start" to={links.receipt(order.id)}>
            Printable receipt
          </Link>
        </section>
      ) : null}
      {party ? (
        <RepliesThread
          replies={order.replies}
          me={party}
          timeZone={tz}
          send={async (note) => setOrder((await replyToOrder(order.id, note)).order)}
        />
      ) : (
        <section className="card replies" aria-labelledby="replies-heading">
          <h2 id="replies-heading">Messages</h2>
          <p>
            Messages between the buyer and the seller are for them only. <Link to={signInPath(links.order(order.id))}>Sign in</Link> with
            the email address of this order (verified) to read them and write to the seller.
          </p>
        </section>
      )}
    </Page>
  );
}

/** /orders/{id}/return?session_id=…: where the pay page sends the browser; confirms, then shows the order. */
export function OrderReturnPage() {
  const { orderId = '' } = useParams();
  const [params] = useSearchParams();
  const sessionId = params.get('session_id') ?? '';
  const { token, ready } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState('');
  const key = useRef(newIdempotencyKey());

  useEffect(() => {
    if (!ready) return;
    let live = true;
    completeOrder(orderId, sessionId, key.current).then(
      ({ order }) => {
        if (!live) return;
        if (order.state === 'paid')
          sessionStore.notify({ tag: 'order', type: 'success', content: 'Thank you: your payment went through.', timeout: 6000 });
        navigate(links.order(orderId), { replace: true });
      },
      (failure: unknown) => live && setError(errorText(failure)),
    );
    return () => {
      live = false;
    };
  }, [ready, token, orderId, sessionId, navigate]);

  return (
    <Page title="Confirming your payment">
      {error ? (
        <>
          <FormError message={error} />
          <Link className="button" to={links.order(orderId)}>
            See the order
          </Link>
        </>
      ) : (
        <p role="status" className="progress-text">
          Checking with the payment provider…
        </p>
      )}
    </Page>
  );
}

/** /orders/{id}/receipt: the printable receipt (the site's chrome is hidden when printing). */
export function ReceiptPage() {
  const { orderId = '' } = useParams();
  const { order, missing, error } = useOrder(orderId);
  if (missing) return <NotFoundPage />;
  if (!order) return <Page title="Receipt">{error ? <FormError message={error} /> : <p role="status">Loading…</p>}</Page>;
  const receipt = order.receipt;
  if (!receipt) {
    return (
      <Page title="Receipt">
        <p className="empty-state-text">This order has no receipt yet: it is not paid.</p>
        <Link to={links.order(order.id)}>See the order</Link>
      </Page>
    );
  }
  return (
    <article className="page receipt-page">
      <header className="receipt-head">
        <div>
          <h1>Receipt</h1>
          <p className="muted">
            {receipt.seller.name} · {receipt.seller.service}
          </p>
        </div>
        <p className="badge badge-success receipt-paid">{order.state === 'refunded' ? 'Refunded' : 'Paid'}</p>
      </header>
      <dl className="details">
        <dt>Receipt number</dt>
        <dd>{receipt.number}</dd>
        <dt>Date paid</dt>
        <dd>{receipt.date}</dd>
        <dt>Billed to</dt>
        <dd>{receipt.email ?? 'Not shared with the seller'}</dd>
      </dl>
      <ItemsTable items={receipt.items} amount={receipt.amount} />
      <p className="receipt-total">
        Amount paid: <strong>{formatUsd(receipt.amount)}</strong> ({receipt.currency})
      </p>
      {receipt.seller.supportEmail ? (
        <p>
          Questions? Write to <a href={`mailto:${receipt.seller.supportEmail}`}>{receipt.seller.supportEmail}</a>.
        </p>
      ) : null}
      <div className="actions no-print">
        <button type="button" className="button button-primary" onClick={() => window.print()}>
          Print
        </button>
        <Link className="button button-ghost" to={links.order(order.id)}>
          Back to the order
        </Link>
      </div>
    </article>
  );
}
