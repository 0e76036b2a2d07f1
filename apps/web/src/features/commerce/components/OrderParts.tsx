import {
  formatLongDate,
  formatUsd,
  SHIPPING_LABELS,
  type LatePaymentView,
  type OrderItem,
  type OrderReplyView,
  type OrderState,
  type ShippingChoice,
} from '@tinkerdesk/contracts/web';
import { useState, type FormEvent } from 'react';
import { errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { OrderItemImage } from './ProductImage';

const STATE_LABELS: Record<OrderState, { label: string; tone: string }> = {
  pending: { label: 'Awaiting payment', tone: 'badge-warning' },
  paid: { label: 'Paid', tone: 'badge-success' },
  failed: { label: 'Payment failed', tone: 'badge-danger' },
  fulfilled: { label: 'Fulfilled', tone: 'badge-success' },
  cancelled: { label: 'Cancelled', tone: '' },
  refunded: { label: 'Refunded', tone: '' },
};

/** An order's state as a badge (words, not colour alone). */
export function OrderStateBadge({ state }: { state: OrderState }) {
  const { label, tone } = STATE_LABELS[state];
  return <span className={`badge ${tone}`.trim()}>{label}</span>;
}

/**
 * Payments that came when the order could no longer take them (it was cancelled at the same moment):
 * each is refunded automatically, and both sides see it here.
 */
export function LatePayments({ payments, state }: { payments: LatePaymentView[]; state: OrderState }) {
  if (payments.length === 0) return null;
  const when = state === 'cancelled' ? 'after the order was cancelled' : 'when the order was paid already';
  return (
    <ul className="notice" aria-label="Automatic refunds">
      {payments.map((p) => (
        <li key={p.created}>
          A payment of {formatUsd(p.amount)} came {when};{' '}
          {p.state === 'refunded' ? 'it was refunded in full automatically.' : 'it is being refunded in full automatically.'}
        </li>
      ))}
    </ul>
  );
}

/** What was bought: name, quantity, price at the time of the order, and the total. */
export function ItemsTable({ items, amount }: { items: OrderItem[]; amount: number }) {
  return (
    <table className="items-table">
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col" className="numeric">
            Qty
          </th>
          <th scope="col" className="numeric">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((item, i) => (
          <tr key={`${item.productId ?? 'item'}-${i}`}>
            <td>
              <OrderItemImage item={item} />
              <strong>{item.name}</strong>
              {item.description ? <small className="muted block">{item.description}</small> : null}
            </td>
            <td className="numeric">{item.quantity}</td>
            <td className="numeric">{formatUsd(item.amount)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={2}>
            Total
          </th>
          <td className="numeric">
            <strong>{formatUsd(amount)}</strong>
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

export const shippingLabel = (value: string): string => (SHIPPING_LABELS as Record<string, string>)[value] ?? value;

/** Printed mail: the shipping service, options and address. */
export function ShippingDetails({ shipping }: { shipping: ShippingChoice }) {
  const a = shipping.address;
  return (
    <dl className="details">
      <dt>Shipping</dt>
      <dd>{shippingLabel(shipping.service)}</dd>
      <dt>Options</dt>
      <dd>{shipping.options.length ? shipping.options.map(shippingLabel).join(', ') : 'None'}</dd>
      <dt>Address</dt>
      <dd>
        <address>
          {a.name}
          <br />
          {a.line1}
          {a.line2 ? (
            <>
              <br />
              {a.line2}
            </>
          ) : null}
          <br />
          {a.city}
          {a.state ? `, ${a.state}` : ''} {a.postalCode}
          <br />
          {a.country}
        </address>
      </dd>
    </dl>
  );
}

/** What sends a message: the page's mutation (its pending state and its error show in the form). */
export interface ReplySender {
  mutate: (note: string, options: { onSuccess: () => void }) => void;
  isPending: boolean;
  error: unknown;
}

/** The message thread of an order, and the form to add to it when the viewer may. */
export function RepliesThread({
  replies,
  me,
  timeZone,
  send,
}: {
  replies: OrderReplyView[];
  me: 'buyer' | 'seller' | null;
  timeZone?: string;
  send?: ReplySender;
}) {
  const [note, setNote] = useState('');
  // A local check before anything is sent; the server's refusal is the mutation's error.
  const [empty, setEmpty] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!send || !note.trim()) {
      setEmpty(true);
      return;
    }
    setEmpty(false);
    send.mutate(note.trim(), { onSuccess: () => setNote('') });
  }

  return (
    <section className="card replies" aria-labelledby="replies-heading">
      <h2 id="replies-heading">Messages</h2>
      {replies.length === 0 ? <p className="empty-state-text">No messages yet.</p> : null}
      <ol className="reply-list">
        {replies.map((reply) => (
          <li key={reply.id} className={`reply reply-${reply.from === me ? 'mine' : 'theirs'}`}>
            <p className="reply-meta">
              <strong>{reply.from === me ? 'You' : reply.from === 'seller' ? 'Seller' : 'Buyer'}</strong>
              <span className="muted"> · {formatLongDate(reply.created, timeZone)}</span>
            </p>
            <p className="reply-note">{reply.note}</p>
          </li>
        ))}
      </ol>
      {send ? (
        <form className="form form-flat" onSubmit={submit}>
          <label htmlFor="reply-note">{me === 'seller' ? 'Message to the buyer' : 'Message to the seller'}</label>
          <textarea id="reply-note" name="note" rows={3} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
          <FormError message={empty ? 'Write a message first.' : send.error ? errorText(send.error) : ''} />
          <button className="button button-primary align-start" type="submit" disabled={send.isPending}>
            {send.isPending ? 'Sending…' : 'Send message'}
          </button>
        </form>
      ) : null}
    </section>
  );
}
