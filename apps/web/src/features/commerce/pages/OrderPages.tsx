import { formatLongDate, formatUsd, linkBuilder, PAYABLE_ORDER_STATES, type OrderView } from '@tinkerdesk/contracts/web';
import { useEffect } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { errorText } from '../../../shared/api';
import { useDisclosure } from '../../../shared/disclosure';
import { FormError } from '../../../shared/forms';
import { InlineConfirm } from '../../../shared/InlineConfirm';
import { Page } from '../../../shared/Page';
import { session as sessionStore, useSession } from '../../../shared/session/session';
import { NotFoundPage } from '../../info/pages/NotFoundPage';
import { OrderMessagesGate } from '../components/OrderAccess';
import { ItemsTable, LatePayments, OrderStateBadge, RepliesThread, ShippingDetails } from '../components/OrderParts';
import { OrderAftercare } from '../components/RefundParts';
import { useBuyerReply, useCancelOrder, useCompleteOrder, useOrder, usePayOrder } from '../hooks/orders';
import { rememberedRequestKey } from '../hooks/requests';
import { sellerLine } from '../seller-name';

const links = linkBuilder();

/** /orders/{id}: the order as its buyer sees it: state, pay, cancel, receipt, messages. */
export function OrderPage() {
  const { orderId = '' } = useParams();
  const { data: order, missing, error, tz } = useOrder(orderId);
  const pay = usePayOrder(orderId);
  const cancel = useCancelOrder(orderId);
  const reply = useBuyerReply(orderId);
  const cancelling = useDisclosure();

  if (missing) return <NotFoundPage />;
  if (!order) {
    return <Page title="Order">{error ? <FormError message={errorText(error)} /> : <p role="status">Loading…</p>}</Page>;
  }

  // Paying goes on to the provider's page: the buttons stay disabled until the browser has left.
  const busy = pay.isPending || pay.isSuccess || cancel.isPending;
  const actionError = pay.error ?? cancel.error;
  const startPay = () => {
    cancel.reset();
    pay.mutate();
  };
  const confirmCancelOrder = () => {
    pay.reset();
    cancel.mutate(undefined, {
      onSuccess: () => {
        cancelling.close();
        sessionStore.notify({ tag: 'order', type: 'success', content: 'Your order is cancelled.', timeout: 5000 });
      },
    });
  };

  const payable = PAYABLE_ORDER_STATES.includes(order.state);
  const party = order.role === 'visitor' ? null : order.role;
  return (
    <Page title={order.items[0]?.name ?? 'Order'} lead={<>From {sellerLine(order.sellerName, order.serviceName)}</>} wide>
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
        <FormError message={actionError ? errorText(actionError) : ''} />
        {payable && order.role !== 'seller' ? (
          <div className="actions">
            <button type="button" className="button button-primary" disabled={busy} onClick={startPay}>
              {order.state === 'failed' ? `Try another card (${formatUsd(order.amount)})` : `Pay ${formatUsd(order.amount)}`}
            </button>
            {cancelling.shown ? (
              <InlineConfirm
                label="Cancel this order?"
                question="Cancel this order?"
                action="Cancel order"
                keep="Keep it"
                busy={busy}
                onConfirm={confirmCancelOrder}
                onCancel={() => cancelling.close()}
              />
            ) : (
              <button type="button" className="button button-ghost" {...cancelling.opener('open')}>
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
            {order.refundedAmount > 0 ? (
              <>
                <dt>Refunded</dt>
                <dd>
                  {formatUsd(order.refundedAmount)}
                  {order.refundedAmount >= order.receipt.amount ? ' (in full)' : ''}
                </dd>
              </>
            ) : null}
          </dl>
          <Link className="button align-start" to={links.receipt(order.id)}>
            Printable receipt
          </Link>
        </section>
      ) : null}
      <OrderAftercare order={order} timeZone={tz} />
      {party ? (
        <RepliesThread replies={order.replies} me={party} timeZone={tz} send={reply} />
      ) : (
        <OrderMessagesGate orderPath={links.order(order.id)} email={order.email} />
      )}
    </Page>
  );
}

/**
 * /orders/{id}/return?session_id=…[&request=…]: where the pay page sends the browser; confirms, then
 * shows the order, or the payment request the order pays.
 */
export function OrderReturnPage() {
  const { orderId = '' } = useParams();
  const [params] = useSearchParams();
  const sessionId = params.get('session_id') ?? '';
  const requestId = params.get('request');
  const { token, ready } = useSession();
  const navigate = useNavigate();
  const complete = useCompleteOrder(orderId);
  const { mutate } = complete;

  useEffect(() => {
    if (!ready) return;
    // The callbacks of mutate() run for the last call only, and only while the page is shown.
    mutate(sessionId, {
      onSuccess: ({ order }) => {
        if (order.state === 'paid')
          sessionStore.notify({ tag: 'order', type: 'success', content: 'Thank you: your payment went through.', timeout: 6000 });
        navigate(requestId ? links.request(requestId, rememberedRequestKey(requestId)) : links.order(orderId), { replace: true });
      },
    });
  }, [ready, token, orderId, sessionId, requestId, navigate, mutate]);
  const error = complete.error ? errorText(complete.error) : '';

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
  const { data: order, missing, error } = useOrder(orderId);
  if (missing) return <NotFoundPage />;
  if (!order) return <Page title="Receipt">{error ? <FormError message={errorText(error)} /> : <p role="status">Loading…</p>}</Page>;
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
          <p className="muted">{sellerLine(receipt.seller.name, receipt.seller.service)}</p>
        </div>
        <p className="badge badge-success receipt-paid">
          {order.refundedAmount >= receipt.amount ? 'Refunded' : order.refundedAmount > 0 ? 'Partly refunded' : 'Paid'}
        </p>
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
      <ReceiptRefunds order={order} amount={receipt.amount} />
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

/** On the receipt: each refund with its date, and what the buyer paid in the end. */
function ReceiptRefunds({ order, amount }: { order: OrderView; amount: number }) {
  const tz = order.receipt?.timeZone;
  if (order.refundedAmount === 0) return null;
  return (
    <div className="receipt-refunds">
      <ul aria-label="Refunds">
        {order.refunds.map((r) => (
          <li key={r.id}>
            Refunded {formatUsd(r.amount)} on {formatLongDate(r.refundedAt, tz)}
          </li>
        ))}
      </ul>
      <p className="receipt-total">
        {order.refundedAmount >= amount ? 'Refunded in full' : 'Refunded'}: <strong>{formatUsd(order.refundedAmount)}</strong> · Net paid:{' '}
        <strong>{formatUsd(amount - order.refundedAmount)}</strong>
      </p>
    </div>
  );
}
