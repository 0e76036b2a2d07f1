import { formatLongDate, formatUsd, linkBuilder, type PaymentRequestView, type RequestState } from '@tinkerdesk/contracts/web';
import { useCallback, useState, type FormEvent } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router-dom';
import { errorText } from '../../../shared/api';
import { InlinePanel, useDisclosure } from '../../../shared/disclosure';
import { EMAIL_PATTERN, FormError, useValidatedForm, type FieldErrors } from '../../../shared/forms';
import { InlineConfirm } from '../../../shared/InlineConfirm';
import { Page } from '../../../shared/Page';
import { session as sessionStore, useSession } from '../../../shared/session/session';
import { NotFoundPage } from '../../info/pages/NotFoundPage';
import { DeclinePanel } from '../components/DeclinePanel';
import { ResendVerification } from '../components/ResendVerification';
import { useAcceptAndPay, useDeclineRequest, useRequest, useWithdrawRequest } from '../hooks/requests';
import { sellerLine } from '../seller-name';

const links = linkBuilder();

const STATE_TEXT: Record<RequestState, string> = {
  open: 'Waiting for an answer',
  accepted: 'Accepted: waiting for payment',
  paid: 'Paid',
  declined: 'Declined',
  cancelled: 'Withdrawn by the seller',
  expired: 'Expired',
};

/** /requests/{id}?key=…: a payment request as its payer answers it (accept and pay, or decline) or its seller follows it. */
export function RequestPage() {
  const { requestId = '' } = useParams();
  const [params] = useSearchParams();
  const key = params.get('key') ?? undefined;
  const { profile, loggedIn, verified } = useSession();
  // Loaded again when the session changes (the app resets every query): a sign-in here or in another tab shows the viewer's role.
  const { data: request, missing, error } = useRequest(requestId, key);

  // Without the emailed link's key, a payer sees the request once their address is verified: an unverified
  // viewer is told that, whether or not this request exists or is theirs (the answer is the same 404).
  if (missing && !key && loggedIn && profile && !verified) return <VerifyFirst guid={profile.guid} email={profile.email} />;
  if (missing) return <NotFoundPage />;
  if (!request)
    return <Page title="Payment request">{error ? <FormError message={errorText(error)} /> : <p role="status">Loading…</p>}</Page>;

  return (
    <Page title={`${formatUsd(request.product.price)} for ${request.product.name}`} lead={<>Requested by {request.sellerName}</>}>
      <section className="card order-summary" aria-labelledby="request-heading">
        <div className="section-head">
          <h2 id="request-heading">Payment request</h2>
          <span
            className={`badge ${request.state === 'paid' ? 'badge-success' : request.state === 'declined' ? 'badge-danger' : ''}`.trim()}
          >
            {STATE_TEXT[request.state]}
          </span>
        </div>
        <dl className="details">
          <dt>From</dt>
          <dd>{sellerLine(request.sellerName, request.serviceName)}</dd>
          <dt>For</dt>
          <dd>
            {request.product.name}
            {request.product.description ? <small className="muted block">{request.product.description}</small> : null}
          </dd>
          <dt>Amount</dt>
          <dd>
            <strong>{formatUsd(request.product.price)}</strong>
          </dd>
          {request.note ? (
            <>
              <dt>Note</dt>
              <dd className="prewrap">{request.note}</dd>
            </>
          ) : null}
          {request.state === 'declined' ? (
            <>
              <dt>{request.role === 'seller' ? 'Their reason' : 'Your reason'}</dt>
              <dd className={request.declineReason ? 'prewrap' : 'muted'}>{request.declineReason ?? 'No reason given'}</dd>
            </>
          ) : null}
          <dt>Sent</dt>
          <dd>{formatLongDate(request.created, profile?.tz)}</dd>
          {request.state === 'open' ? (
            <>
              <dt>Answer by</dt>
              <dd>{formatLongDate(request.expires, profile?.tz)}</dd>
            </>
          ) : null}
        </dl>
        {request.orderId ? (
          <p>
            <Link to={request.role === 'seller' ? links.sellerOrder(request.orderId) : links.order(request.orderId)}>See the order</Link>
          </p>
        ) : null}
        {request.role === 'payer' && request.state === 'open' ? <Answer request={request} requestKey={key} /> : null}
        {request.role === 'seller' && request.state === 'open' ? <Withdraw request={request} requestKey={key} /> : null}
      </section>
    </Page>
  );
}

/**
 * In place of "Page not found" for a signed-in viewer whose address is not verified and who has no key:
 * what to do (verify, or open the emailed link), with the verification link sent again on request and
 * leading back here. Says nothing of the request itself (it may not exist, or be someone else's).
 */
function VerifyFirst({ guid, email }: { guid: string; email: string }) {
  const { pathname } = useLocation();
  return (
    <Page title="Verify your email address to see this request" lead={<>Payment requests are shown to the address they were sent to.</>}>
      <section className="card account-card" aria-labelledby="verify-first-heading">
        <h2 id="verify-first-heading">Your address is not verified yet</h2>
        <p>
          You are signed in as <strong className="break-anywhere">{email}</strong>. Once you open the verification link we emailed to it,
          the payment requests sent to that address open here. The link in the request’s own email opens it too.
        </p>
        <ResendVerification guid={guid} email={email} returnTo={pathname} />
      </section>
    </Page>
  );
}

function Withdraw({ request, requestKey }: { request: PaymentRequestView; requestKey?: string }) {
  const confirming = useDisclosure();
  const withdraw = useWithdrawRequest(request.id, requestKey);
  return (
    <>
      <FormError message={withdraw.error ? errorText(withdraw.error) : ''} />
      {confirming.shown ? (
        <InlineConfirm
          label="Withdraw this request?"
          question="Withdraw this request?"
          action="Withdraw"
          onConfirm={() => withdraw.mutate()}
          onCancel={() => confirming.close()}
        />
      ) : (
        <button type="button" className="button button-ghost align-start" {...confirming.opener('open')}>
          Withdraw request…
        </button>
      )}
    </>
  );
}

/** The payer's answer: accept (email for the receipt, note, share) and go on to pay, or decline (with a reason, optional). */
function Answer({ request, requestKey }: { request: PaymentRequestView; requestKey?: string }) {
  const { profile } = useSession();
  const validate = useCallback(
    (f: Record<'email', string>): FieldErrors<'email'> =>
      EMAIL_PATTERN.test(f.email.trim()) ? {} : { email: 'Please enter a valid email address.' },
    [],
  );
  const form = useValidatedForm<'email'>('answer', { email: profile?.email ?? request.email }, validate);
  const [note, setNote] = useState('');
  const [share, setShare] = useState(false);
  const declining = useDisclosure();
  const [reason, setReason] = useState('');
  const acceptAndPay = useAcceptAndPay(request.id, requestKey);
  const decline = useDeclineRequest(request.id, requestKey);
  // Accepting goes on to the payment page: the form stays disabled until the browser has left.
  const accepting = acceptAndPay.isPending || acceptAndPay.isSuccess;
  const busy = accepting || decline.isPending;
  const failure = acceptAndPay.error;

  function accept(event: FormEvent) {
    event.preventDefault();
    if (!form.check()) return;
    decline.reset();
    acceptAndPay.mutate({ email: form.fields.email.trim(), ...(note.trim() ? { note: note.trim() } : {}), share });
  }

  function confirmDecline() {
    acceptAndPay.reset();
    decline.mutate(reason, {
      onSuccess: () =>
        sessionStore.notify({ tag: 'request', type: 'info', content: 'You declined the request; the seller is told.', timeout: 6000 }),
    });
  }

  return (
    <form className="form form-flat" onSubmit={accept} noValidate aria-label="Answer the request">
      <label htmlFor="answer-email">Email (for the receipt)</label>
      <input {...form.fieldProps('email')} type="email" autoComplete="email" />
      {form.fieldError('email')}
      <label htmlFor="answer-note">Note to the seller (optional)</label>
      <textarea id="answer-note" rows={2} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
      <label className="checkbox">
        <input type="checkbox" checked={share} onChange={(e) => setShare(e.target.checked)} /> Share my contact details with the seller
      </label>
      <FormError message={failure ? errorText(failure) : ''} />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {accepting ? 'Opening the payment page…' : `Accept and pay ${formatUsd(request.product.price)}`}
        </button>
        {declining.shown ? null : (
          <button type="button" className="button button-ghost" {...declining.opener('open')} disabled={busy}>
            Decline…
          </button>
        )}
      </div>
      {declining.shown ? (
        <InlinePanel disclosure={declining}>
          <DeclinePanel
            reason={reason}
            onReason={setReason}
            error={decline.error}
            busy={busy}
            onConfirm={confirmDecline}
            onCancel={() => (decline.reset(), declining.close())}
          />
        </InlinePanel>
      ) : null}
    </form>
  );
}
