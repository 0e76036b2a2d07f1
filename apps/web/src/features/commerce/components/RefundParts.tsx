import { formatLongDate, formatUsd, type OrderView } from '@tinkerdesk/contracts/web';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, errorText } from '../../../shared/api';
import { useDisclosure } from '../../../shared/disclosure';
import { FieldError, FormError } from '../../../shared/forms';
import { InlineConfirm } from '../../../shared/InlineConfirm';
import { centsToDollars, parseDollars } from '../money';

/** http(s) addresses in a note; what ends a sentence after one is not part of it. */
const LINK = /https?:\/\/[^\s<>"']+/g;
const TRAILING = /[.,;:!?)\]]+$/;

/**
 * A note as text with its http(s) addresses as links (new tab, no opener). React escapes the text:
 * nothing in a note is ever read as HTML, and no other scheme (javascript:, data:) becomes a link.
 */
export function LinkedText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const url = match[0].replace(TRAILING, '');
    const start = match.index;
    if (start > last) parts.push(text.slice(last, start));
    parts.push(
      <a key={start} href={url} target="_blank" rel="noopener noreferrer">
        {url}
      </a>,
    );
    last = start + url.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}

/**
 * What happened after payment, on both order pages: when it was fulfilled and what the seller
 * delivered (the note, links clickable), and each refund with its date and amount.
 */
export function OrderAftercare({ order, timeZone }: { order: OrderView; timeZone?: string }) {
  if (!order.fulfilledAt && !order.fulfilNote && order.refunds.length === 0) return null;
  const full = order.refundedAmount >= order.amount;
  return (
    <section className="card order-aftercare" aria-labelledby="aftercare-heading">
      <h2 id="aftercare-heading">{order.refunds.length > 0 ? 'Delivery and refunds' : 'Delivery'}</h2>
      <dl className="details">
        {order.fulfilledAt ? (
          <>
            <dt>Fulfilled on</dt>
            <dd>{formatLongDate(order.fulfilledAt, timeZone)}</dd>
          </>
        ) : null}
        {order.fulfilNote ? (
          <>
            <dt>Delivery note</dt>
            <dd className="delivery-note">
              <LinkedText text={order.fulfilNote} />
            </dd>
          </>
        ) : null}
        {order.refunds.map((refund) => (
          <RefundRow key={refund.id} date={formatLongDate(refund.refundedAt, timeZone)} amount={refund.amount} reason={refund.reason} />
        ))}
        {order.refunds.length > 1 || (order.refunds.length === 1 && !full) ? (
          <>
            <dt>Refunded in all</dt>
            <dd>
              {formatUsd(order.refundedAmount)} of {formatUsd(order.amount)}
              {full ? ' (all of it)' : ''}
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

function RefundRow({ date, amount, reason }: { date: string; amount: number; reason: string | null }) {
  return (
    <>
      <dt>Refund</dt>
      <dd>
        <strong>−{formatUsd(amount)}</strong> on {date}
        {reason ? <span className="muted block">Reason: {reason}</span> : null}
      </dd>
    </>
  );
}

/** What refunds a mutation: the page's (its pending state and error show in the form). */
export interface RefundSender {
  mutate: (refund: { amount?: number; reason?: string }, options: { onSuccess: () => void; onError: (error: unknown) => void }) => void;
  reset: () => void;
  isPending: boolean;
  error: unknown;
}

/** The amount typed, checked against what remains: cents, or what is wrong with it in plain words. */
export function checkRefundAmount(text: string, remaining: number): { cents: number } | { error: string } {
  if (!text.trim()) return { error: 'Enter the amount to refund, like 5.00.' };
  const cents = parseDollars(text);
  if (cents === null) return { error: 'Enter the amount in dollars and cents, like 5.00.' };
  if (cents <= 0) return { error: 'The amount must be more than $0.00.' };
  if (cents > remaining) return { error: `You can refund at most ${formatUsd(remaining)}, what remains of this order.` };
  return { cents };
}

/** The server's refusal of the amount (400 on `amount`), in the field's words; other errors go under the form. */
function amountRefusal(error: unknown): string {
  if (!(error instanceof ApiError) || error.error !== 'VALIDATION_FAILED' || !error.detail?.startsWith('amount')) return '';
  const most = /at most \d+ cents \((\$[\d,.]+)\)/.exec(error.detail);
  return most
    ? `You can refund at most ${most[1]}, what remains of this order.`
    : 'This amount cannot be refunded: check it and try again.';
}

/**
 * The seller's refund: an amount (prefilled with what remains, in dollars) and an optional reason
 * for the buyer, then a confirmation naming the amount before anything is refunded.
 */
export function RefundForm({ order, refund, busy, onDone }: { order: OrderView; refund: RefundSender; busy: boolean; onDone: () => void }) {
  const remaining = order.amount - order.refundedAmount;
  const [amount, setAmount] = useState(centsToDollars(remaining));
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  // The confirmation, opened by "Refund…" (the focus returns to it), and the amount it names.
  const confirm = useDisclosure();
  const [cents, setCents] = useState(0);
  const confirming = confirm.shown ? cents : null;
  const checked = checkRefundAmount(amount, remaining);
  const serverAmount = amountRefusal(refund.error);
  const amountError = (touched && 'error' in checked ? checked.error : '') || serverAmount;
  const otherError = refund.error && !serverAmount ? errorText(refund.error) : '';

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    refund.reset();
    if ('error' in checked) {
      document.getElementById('refund-amount')?.focus();
      return;
    }
    setCents(checked.cents);
    confirm.open('open');
  }

  function send(cents: number) {
    // Always the amount confirmed: never more than the seller saw, even if a refund was made meanwhile.
    const body = { amount: cents, ...(reason.trim() ? { reason: reason.trim() } : {}) };
    refund.mutate(body, {
      onSuccess: () => {
        confirm.close();
        setReason('');
        onDone();
      },
      // A refusal of the amount sends the focus to its field; another, back to "Refund…".
      onError: (error) => confirm.close(amountRefusal(error) ? 'refund-amount' : undefined),
    });
  }

  return (
    <form className="form form-flat refund-form" onSubmit={submit} noValidate aria-labelledby="refund-heading">
      <h3 id="refund-heading">Refund</h3>
      <FormError message={otherError} />
      <p className="muted">
        Paid {formatUsd(order.amount)}
        {order.refundedAmount > 0 ? `, refunded ${formatUsd(order.refundedAmount)} so far` : ''}: up to {formatUsd(remaining)} can be
        refunded.
      </p>
      <label htmlFor="refund-amount">Amount to refund (US dollars)</label>
      <span className="input-with-unit">
        <input
          id="refund-amount"
          name="amount"
          inputMode="decimal"
          value={amount}
          aria-invalid={Boolean(amountError)}
          aria-describedby={amountError ? 'refund-amount-error' : undefined}
          onChange={(e) => {
            setAmount(e.target.value);
            setTouched(true);
            if (confirm.shown) confirm.close('refund-amount');
          }}
        />
        <span className="muted">USD</span>
      </span>
      <FieldError id="refund-amount-error" name="Amount" message={amountError} />
      <label htmlFor="refund-reason">Reason for the buyer (optional)</label>
      <textarea id="refund-reason" name="reason" rows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
      {confirming !== null ? (
        <InlineConfirm
          label="Confirm the refund"
          question={`Refund ${formatUsd(confirming)} to the buyer${confirming === remaining && order.refundedAmount === 0 ? ' (the full amount)' : ''}? This cannot be undone.`}
          action={`Refund ${formatUsd(confirming)}`}
          keep="Keep it"
          busy={busy}
          onConfirm={() => send(confirming)}
          onCancel={confirm.close}
        />
      ) : (
        <button type="submit" className="button button-ghost align-start" disabled={busy} id={confirm.opener('open').id}>
          Refund…
        </button>
      )}
    </form>
  );
}
