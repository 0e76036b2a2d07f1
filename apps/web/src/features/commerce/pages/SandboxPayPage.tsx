import { formatUsd, linkBuilder } from '@tinkerdesk/contracts/web';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ApiError, errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { useTitle } from '../../../shared/useTitle';
import { useLeaveSandbox, useSandboxSession, useSandboxStep } from '../hooks/sandbox';

const links = linkBuilder();

/** "4242424242424242" → "4242 4242 4242 4242" while typing. */
const groupDigits = (value: string) =>
  value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/** "1234" → "12 / 34" while typing. */
const formatExpiry = (value: string) => {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
};

/**
 * The sandbox processor's hosted page (/pay/sandbox/{sessionId}): this site's own checkout, with
 * Stripe's test cards. In payment mode it pays an order and sends the browser to the order's return
 * address; in setup mode it saves a card for plans and returns to /billing, as Stripe Checkout does.
 */
export function SandboxPayPage() {
  const { sessionId = '' } = useParams();
  const { data: session, error: loadError } = useSandboxSession(sessionId);
  const setup = session?.mode === 'setup';
  useTitle(setup ? 'Save a card' : 'Pay');
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  // What the card form says before anything is sent (an incomplete number, date or code).
  const [incomplete, setIncomplete] = useState('');
  const step = useSandboxStep(sessionId);
  const leave = useLeaveSandbox(sessionId);
  const busy = step.isPending || step.leaving || leave.isPending || leave.isSuccess;
  const error = incomplete || (step.error ? errorText(step.error) : '');

  function submit(event: FormEvent) {
    event.preventDefault();
    const digits = number.replace(/\D/g, '');
    const problem =
      digits.length < 12
        ? 'Your card number is incomplete.'
        : !/^(0[1-9]|1[0-2]) \/ \d{2}$/.test(expiry)
          ? 'Your card’s expiration date is incomplete.'
          : !/^\d{3,4}$/.test(cvc)
            ? 'Your card’s security code is incomplete.'
            : '';
    setIncomplete(problem);
    if (!problem) step.mutate({ pay: { number: digits, expiry: expiry.replace(/ /g, ''), cvc } });
  }

  const authenticate = (approve: boolean) => {
    setIncomplete('');
    step.mutate({ approve });
  };

  if (!session) {
    const text = loadError
      ? loadError instanceof ApiError && loadError.status < 500
        ? 'This payment page does not exist.'
        : errorText(loadError)
      : '';
    return <main className="page checkout-page">{text ? <FormError message={text} /> : <p role="status">Loading…</p>}</main>;
  }

  const summary = setup ? (
    <section className="checkout-summary" aria-label="What this page does">
      <p className="muted">{session.sellerName}</p>
      <h1>Save a card</h1>
      <p>Plans charge it on their days; nothing is charged now.</p>
      <p className="badge">Test mode</p>
    </section>
  ) : (
    <section className="checkout-summary" aria-label="What you pay for">
      <p className="muted">{session.sellerName}</p>
      <h1>{session.productName}</h1>
      <p className="checkout-amount">{formatUsd(session.amount)}</p>
      <p className="badge">Test mode</p>
    </section>
  );

  if (session.status === 'complete' || session.status === 'expired') {
    return (
      <article className="page checkout-page">
        {summary}
        <div className="card">
          <h2>This {setup ? 'card page' : 'payment page'} is no longer available</h2>
          <p>{session.status === 'complete' ? (setup ? 'The card was saved.' : 'It was paid.') : 'It expired or was left.'}</p>
          {session.orderId ? (
            <Link className="button button-primary" to={links.order(session.orderId)}>
              See the order
            </Link>
          ) : (
            <Link className="button button-primary" to={links.billing()}>
              Back to billing
            </Link>
          )}
        </div>
      </article>
    );
  }

  if (session.status === 'requires_action') {
    return (
      <article className="page checkout-page">
        {summary}
        <section className="card" aria-labelledby="auth-heading">
          <h2 id="auth-heading">{setup ? 'Confirm this card' : 'Confirm this payment'}</h2>
          <p>
            {setup
              ? 'Your bank asks you to confirm that this card may be charged later (3-D Secure).'
              : `Your bank asks you to confirm the payment of ${formatUsd(session.amount)} (3-D Secure).`}{' '}
            This is a test: choose the outcome.
          </p>
          <FormError message={error} />
          <div className="actions">
            <button type="button" className="button button-primary" disabled={busy} onClick={() => authenticate(true)}>
              Complete authentication
            </button>
            <button type="button" className="button button-danger" disabled={busy} onClick={() => authenticate(false)}>
              Fail authentication
            </button>
          </div>
        </section>
      </article>
    );
  }

  return (
    <article className="page checkout-page">
      {summary}
      <form className="card form form-flat" onSubmit={submit} noValidate aria-label={setup ? 'Save a card' : 'Pay with card'}>
        {session.email ? <p className="muted">Email: {session.email}</p> : null}
        {session.error ? (
          <p className="notice notice-error" role="alert">
            {session.error}
          </p>
        ) : null}
        <label htmlFor="card-number">Card number</label>
        <input
          id="card-number"
          name="cardnumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          value={number}
          onChange={(e) => setNumber(groupDigits(e.target.value))}
        />
        <div className="field-row">
          <span>
            <label htmlFor="card-expiry">Expiration</label>
            <input
              id="card-expiry"
              name="exp-date"
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM / YY"
              value={expiry}
              onChange={(e) => setExpiry(formatExpiry(e.target.value))}
            />
          </span>
          <span>
            <label htmlFor="card-cvc">CVC</label>
            <input
              id="card-cvc"
              name="cvc"
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder="123"
              maxLength={4}
              value={cvc}
              onChange={(e) => setCvc(e.target.value.replace(/\D/g, ''))}
            />
          </span>
        </div>
        <FormError message={error} />
        <button type="submit" className="button button-primary button-large" disabled={busy}>
          {busy ? 'Processing…' : setup ? 'Save card' : `Pay ${formatUsd(session.amount)}`}
        </button>
        <button type="button" className="link-button align-start" onClick={() => leave.mutate(session.cancelUrl)} disabled={busy}>
          Cancel and return
        </button>
        <details className="hint">
          <summary>Test cards</summary>
          <ul>
            <li>4242 4242 4242 4242 {setup ? 'saves, and its charges go through' : 'pays'}</li>
            <li>4000 0000 0000 0002 is declined</li>
            <li>4000 0025 0000 3155 asks you to confirm {setup ? 'once, then charges go through' : 'the payment'}</li>
            <li>4000 0000 0000 0341 {setup ? 'saves, but every charge of it is declined' : 'is declined'}</li>
          </ul>
          <p>Any future expiration date and any three digits as CVC.</p>
        </details>
      </form>
    </article>
  );
}
