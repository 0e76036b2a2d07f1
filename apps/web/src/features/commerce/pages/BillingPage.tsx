import { formatLongDate, formatUsd, linkBuilder } from '@tinkerdesk/contracts/web';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { Dashboard, type DashboardSection } from '../../../shared/Dashboard';
import { Pager } from '../../../shared/Pager';
import { session as sessionStore, useSession } from '../../../shared/session/session';
import { RequireAuth } from '../../auth/RequireAuth';
import { useCompleteCardSetup, useReceipts, useRequests, useTimeline } from '../hooks/queries';
import { cardName, PaymentMethodsSection, PlansSection } from '../components/BillingParts';

const links = linkBuilder();
const PAGE = 10;

/** Where "Pay regularly" was going when it sent the payer to add a card first (sessionStorage). */
export const PENDING_PLAN_KEY = 'tinkerdesk.pending-plan';

/** The sections of /billing, one route each (docs/web-app.md#dashboards); the first is /billing's own. */
const BILLING_SECTIONS: readonly [DashboardSection, ...DashboardSection[]] = [
  {
    path: PATHS.billingCards,
    label: 'Cards',
    anchors: ['cards', 'cards-heading', 'payment-methods'],
    render: () => <PaymentMethodsSection />,
  },
  { path: PATHS.billingPlans, label: 'Plans', anchors: ['plans', 'plans-heading'], render: () => <PlansSection /> },
  {
    path: PATHS.billingRequests,
    label: 'Requests',
    anchors: ['requests', 'requests-received', 'requests-sent'],
    render: () => (
      <div className="stack">
        <RequestsSection box="received" />
        <RequestsSection box="sent" />
      </div>
    ),
  },
  { path: PATHS.billingReceipts, label: 'Receipts', anchors: ['receipts', 'receipts-heading'], render: () => <ReceiptsSection /> },
  { path: PATHS.billingTimeline, label: 'Timeline', anchors: ['timeline', 'timeline-heading'], render: () => <TimelineSection /> },
];

/**
 * /billing (signed-in users): a dashboard of sections, one per route: saved cards (at /billing and
 * /billing/cards), plans, payment requests received and sent, receipts, and the account's timeline. A card
 * page comes back to /billing with ?setup={id}, which keeps the card (and goes on to the plan form it was
 * added from, the card chosen: PENDING_PLAN_KEY).
 */
export function BillingPage() {
  return (
    <RequireAuth>
      <Dashboard
        title="Billing"
        menuLabel="Billing sections"
        base={PATHS.billing}
        sections={BILLING_SECTIONS}
        before={<CardSetupReturn />}
        after={
          <p className="muted">
            Questions about billing? <Link to={PATHS.contact}>Contact us</Link>.
          </p>
        }
      />
    </RequireAuth>
  );
}

/** ?setup={id}: the card page came back; keep the card, then go on (to the plan form, or /billing). */
function CardSetupReturn() {
  const { token } = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const completion = useCompleteCardSetup();
  const setupId = params.get('setup');
  const handled = useRef<string | null>(null);
  const { mutate: complete } = completion;

  useEffect(() => {
    if (!setupId || !token || handled.current === setupId) return;
    handled.current = setupId;
    complete(setupId, {
      onSuccess: ({ instrument }) => {
        const pending = sessionStorage.getItem(PENDING_PLAN_KEY);
        sessionStorage.removeItem(PENDING_PLAN_KEY);
        sessionStore.notify({ tag: 'payment-method', type: 'success', content: `${cardName(instrument)} is saved.`, timeout: 6000 });
        // Saved while starting a plan: back to that plan's form, with this card chosen.
        const plan = pending?.startsWith('/billing/plans/new?') ? `${pending}&card=${encodeURIComponent(instrument.id)}` : null;
        void navigate(plan ?? links.billing(), { replace: true });
      },
      onError: () => void navigate(links.billing(), { replace: true }),
    });
  }, [setupId, token, navigate, complete]);

  return <FormError message={completion.error ? `The card was not saved: ${errorText(completion.error)}` : ''} />;
}

function RequestsSection({ box }: { box: 'sent' | 'received' }) {
  const { profile } = useSession();
  const [offset, setOffset] = useState(0);
  const query = useRequests(box, offset, PAGE);
  const list = query.data ?? null;
  const error = query.error ? errorText(query.error) : '';
  const title = box === 'received' ? 'Payment requests to you' : 'Payment requests you sent';
  const id = `requests-${box}`;
  return (
    <section className="card account-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <FormError message={error} />
      {list === null ? (
        error ? null : (
          <p role="status">Loading…</p>
        )
      ) : list.requests.length === 0 ? (
        <p className="empty-state-text">
          {box === 'received'
            ? 'No requests to pay. Requests sent to your verified email address appear here.'
            : 'You have not asked anyone to pay yet: use “Request payment” next to a product, or “Request a custom amount”, in Account → Selling.'}
        </p>
      ) : (
        <ul className="file-list">
          {list.requests.map((r) => (
            <li key={r.id} className="file-row">
              <span className="file-name">
                <Link to={links.request(r.id)}>
                  <strong>
                    {formatUsd(r.product.price)} for {r.product.name}
                  </strong>
                </Link>
                <small>
                  {box === 'received' ? `from ${r.sellerName}` : `to ${r.email}`} · {formatLongDate(r.created, profile?.tz)}
                </small>
                {r.state === 'declined' && r.declineReason ? (
                  <small className="prewrap">
                    {box === 'sent' ? 'Their reason' : 'Your reason'}: {r.declineReason}
                  </small>
                ) : null}
              </span>
              <span className="badge">{r.state}</span>
            </li>
          ))}
        </ul>
      )}
      {list ? <Pager offset={offset} total={list.total} pageSize={PAGE} onMove={setOffset} label={title} /> : null}
    </section>
  );
}

/** Receipts of the orders the user paid (plan charges: on each plan's page). */
function ReceiptsSection() {
  const { profile } = useSession();
  const [offset, setOffset] = useState(0);
  const query = useReceipts(offset, PAGE);
  const list = query.data ?? null;
  const error = query.error ? errorText(query.error) : '';
  return (
    <section className="card account-card" aria-labelledby="receipts-heading">
      <h2 id="receipts-heading">Receipts</h2>
      <FormError message={error} />
      {list === null ? (
        error ? null : (
          <p role="status">Loading…</p>
        )
      ) : list.orders.length === 0 ? (
        <p className="empty-state-text">
          No receipts yet. Every order you pay while signed in gets one here; plan charges are listed on each plan.
        </p>
      ) : (
        <ul className="file-list" aria-label="Receipts">
          {list.orders.map((order) => (
            <li key={order.id} className="file-row">
              <span className="file-name">
                <Link to={links.receipt(order.id)}>
                  <strong>{order.receipt?.number ?? 'Receipt'}</strong>
                </Link>
                <small>
                  {order.items.map((i) => i.name).join(', ')} · {order.serviceName}
                  {order.receipt ? ` · ${formatLongDate(order.receipt.paidAt, profile?.tz)}` : ''}
                </small>
              </span>
              <span className="actions">
                <span>{formatUsd(order.amount)}</span>
                {order.state === 'refunded' ? (
                  <span className="badge">refunded</span>
                ) : order.refundedAmount > 0 ? (
                  <span className="badge">{formatUsd(order.refundedAmount)} refunded</span>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      )}
      {list ? <Pager offset={offset} total={list.total} pageSize={PAGE} onMove={setOffset} label="Receipts" /> : null}
    </section>
  );
}

function TimelineSection() {
  const { profile } = useSession();
  const [offset, setOffset] = useState(0);
  const query = useTimeline(offset, PAGE);
  const page = query.data ?? null;
  const error = query.error ? errorText(query.error) : '';
  return (
    <section className="card account-card" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      <FormError message={error} />
      {page === null ? (
        error ? null : (
          <p role="status">Loading…</p>
        )
      ) : page.events.length === 0 ? (
        <p className="empty-state-text">
          Nothing yet. Orders, payments, receipts, messages, payment requests, plans and card changes appear here as they happen.
        </p>
      ) : (
        <ol className="file-list timeline">
          {page.events.map((e) => (
            <li key={e.id} className="file-row">
              <span className="file-name">
                {e.orderId ? (
                  <Link to={links.order(e.orderId)}>{e.title}</Link>
                ) : e.requestId ? (
                  <Link to={links.request(e.requestId)}>{e.title}</Link>
                ) : e.planId ? (
                  <Link to={links.plan(e.planId)}>{e.title}</Link>
                ) : (
                  e.title
                )}
                <small>{formatLongDate(e.created, profile?.tz)}</small>
              </span>
              {e.amount !== null ? <span>{formatUsd(e.amount)}</span> : null}
            </li>
          ))}
        </ol>
      )}
      {page ? <Pager offset={offset} total={page.total} pageSize={PAGE} onMove={setOffset} label="Timeline" /> : null}
    </section>
  );
}
