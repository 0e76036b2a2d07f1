import {
  CALENDAR_MIN_GAP_MINUTES,
  formatLongDate,
  formatUsd,
  linkBuilder,
  PLAN_INTERVALS,
  type PaymentInstrumentView,
  type PlanInterval,
  type PlanView,
  type ReminderDayRef,
  type StorefrontView,
  type TimeZoneRef,
} from '@tinkerdesk/contracts/web';
import { DateTime } from 'luxon';
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { ApiError, errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { Page } from '../../../shared/Page';
import { session as sessionStore, useSession } from '../../../shared/session/session';
import { RequireAuth } from '../../auth/RequireAuth';
import { NotFoundPage } from '../../info/pages/NotFoundPage';
import { createPlan, getPlan, getReference, getStorefront, listInstruments, startCardSetup } from '../api';
import { useReference } from '../components/AddressParts';
import { cadence, cardName, confirmCancelPlan, PlanStateBadge, reminderWords } from '../components/BillingParts';
import { PENDING_PLAN_KEY } from './BillingPage';

const links = linkBuilder();

const INTERVAL_LABELS: Record<PlanInterval, string> = { month: 'Every month', quarter: 'Every 3 months', year: 'Every year' };
const loadReminderDays = () => getReference('reminder-days') as Promise<ReminderDayRef[]>;
const loadTimeZones = () => getReference('time-zones') as Promise<TimeZoneRef[]>;

/** The form's time (a wall time in `zone`) as an instant, or null when it is not one. */
function instantOf(local: string, zone: string): DateTime | null {
  if (!local) return null;
  const at = DateTime.fromISO(local, { zone });
  return at.isValid ? at : null;
}

/** A wall time in `zone` for a datetime-local field: tomorrow at 09:00. */
function defaultStart(zone: string): string {
  const at = DateTime.now().setZone(zone).plus({ days: 1 }).set({ hour: 9, minute: 0, second: 0, millisecond: 0 });
  return (at.isValid ? at : DateTime.now().plus({ days: 1 })).toFormat("yyyy-LL-dd'T'HH:mm");
}

/** Why the first charge cannot be at `at` (at least CALENDAR_MIN_GAP_MINUTES, 5, ahead). */
function startProblem(at: DateTime | null): string {
  if (!at) return 'Choose the date and time of the first charge.';
  if (at.toMillis() < Date.now() + CALENDAR_MIN_GAP_MINUTES * 60_000)
    return `Choose a time at least ${CALENDAR_MIN_GAP_MINUTES} minutes from now.`;
  return '';
}

/** /billing/plans/new?seller&service&product: start a plan for a product, charged to a saved card. */
export function PlanNewPage() {
  return (
    <RequireAuth>
      <PlanForm />
    </RequireAuth>
  );
}

function PlanForm() {
  const { token, profile } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const guid = params.get('seller') ?? '';
  const serviceId = params.get('service') ?? '';
  const productId = params.get('product') ?? '';
  const [shop, setShop] = useState<StorefrontView | null>(null);
  const [cards, setCards] = useState<PaymentInstrumentView[] | null>(null);
  const [missing, setMissing] = useState(false);
  const [loadError, setLoadError] = useState('');
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const [zone, setZone] = useState(profile?.tz || browserZone || 'UTC');
  const [interval, setPlanInterval] = useState<PlanInterval>('month');
  const [start, setStart] = useState(() => defaultStart(profile?.tz || browserZone || 'UTC'));
  const [reminderDay, setReminderDay] = useState<number | null>(null);
  const [cardId, setCardId] = useState('');
  const [checked, setChecked] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const reminderDays = useReference(loadReminderDays);
  const zones = useReference(loadTimeZones);

  useEffect(() => {
    let live = true;
    Promise.all([getStorefront(guid, serviceId), listInstruments()]).then(
      ([storefront, instruments]) => {
        if (!live) return;
        setShop(storefront);
        const usable = instruments.instruments.filter((c) => c.provider === storefront.service.provider);
        setCards(usable);
        setCardId((usable.find((c) => c.default) ?? usable[0])?.id ?? '');
      },
      (failure: unknown) => {
        if (!live) return;
        if (failure instanceof ApiError && failure.status < 500) setMissing(true);
        else setLoadError(errorText(failure));
      },
    );
    return () => {
      live = false;
    };
  }, [guid, serviceId, token]);

  const at = instantOf(start, zone);
  // The reminder day follows the first charge's day until chosen (the 29th–31st: the last day).
  const day = reminderDay ?? (at ? (at.day > 28 ? -1 : at.day) : 1);
  // Re-checked 200 ms after the last change (VALIDATION_DELAY_MS), so typing does not flash errors.
  useEffect(() => {
    const timer = setTimeout(() => setChecked(startProblem(instantOf(start, zone))), 200);
    return () => clearTimeout(timer);
  }, [start, zone]);

  const product = useMemo(() => shop?.products.find((p) => p.id === productId) ?? null, [shop, productId]);
  if (missing || (shop && !product)) return <NotFoundPage />;
  if (!shop || !product || cards === null)
    return <Page title="Start a plan">{loadError ? <FormError message={loadError} /> : <p role="status">Loading…</p>}</Page>;
  if (product.shipping)
    return (
      <Page title="Start a plan">
        <p className="notice">{product.name} is shipped: order it each time from the seller’s page instead.</p>
        <Link to={links.storefront(guid, serviceId)}>Back to {shop.service.name}</Link>
      </Page>
    );

  async function addCard() {
    setBusy(true);
    setError('');
    try {
      sessionStorage.setItem(PENDING_PLAN_KEY, links.newPlan(guid, serviceId, productId));
      const { setup } = await startCardSetup(shop?.service.provider);
      window.location.assign(setup.url);
    } catch (failure) {
      setError(errorText(failure));
      setBusy(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = startProblem(instantOf(start, zone));
    setChecked(problem);
    if (problem || !at || !product || !shop) return;
    if (!cardId) return setError('Choose a card, or add one.');
    setBusy(true);
    setError('');
    try {
      const { plan } = await createPlan({
        service: serviceId,
        product: product.id,
        interval,
        reminderDay: day,
        start: at.toISO() ?? '',
        timeZone: zone,
        paymentMethod: cardId,
      });
      sessionStore.notify({
        tag: `plan-${plan.id}`,
        type: 'success',
        content: `Your plan for ${plan.product.name} is set: the first charge is on ${formatLongDate(plan.start, zone)}.`,
        timeout: 8000,
      });
      void navigate(links.plan(plan.id));
    } catch (failure) {
      setError(errorText(failure));
      setBusy(false);
    }
  }

  const dayLabel = reminderDays.find((d) => d.index === day)?.label ?? reminderWords(day);
  return (
    <Page
      title="Start a plan"
      lead={
        <>
          Pay {shop.seller.name || shop.service.name} regularly for {product.name}.
        </>
      }
    >
      <section className="card account-card">
        <form className="form form-flat" onSubmit={(e) => void submit(e)} noValidate aria-label="Start a plan">
          <p>
            <strong>{product.name}</strong> · {formatUsd(product.price)} each time · {shop.service.name}
          </p>
          <label htmlFor="plan-interval">How often</label>
          <select id="plan-interval" value={interval} onChange={(e) => setPlanInterval(e.target.value as PlanInterval)}>
            {PLAN_INTERVALS.map((i) => (
              <option key={i} value={i}>
                {INTERVAL_LABELS[i]}
              </option>
            ))}
          </select>
          <label htmlFor="plan-start">First charge</label>
          <input
            id="plan-start"
            type="datetime-local"
            value={start}
            aria-describedby="plan-start-hint"
            aria-invalid={checked ? true : undefined}
            onChange={(e) => setStart(e.target.value)}
          />
          <small id="plan-start-hint" className={checked ? 'error-text' : 'muted'}>
            {checked || `In ${zone}; at least ${CALENDAR_MIN_GAP_MINUTES} minutes from now.`}
          </small>
          <label htmlFor="plan-day">Then charge on</label>
          <select id="plan-day" value={day} onChange={(e) => setReminderDay(Number(e.target.value))}>
            {(reminderDays.length ? reminderDays : [{ index: day, value: String(day), label: dayLabel }]).map((d) => (
              <option key={d.index} value={d.index}>
                {d.label}
              </option>
            ))}
          </select>
          <label htmlFor="plan-zone">Time zone</label>
          <select id="plan-zone" value={zone} onChange={(e) => setZone(e.target.value)}>
            {(zones.some((z) => z.name === zone) ? zones : [{ name: zone, label: zone, offset: 0 }, ...zones]).map((z) => (
              <option key={z.name} value={z.name}>
                {z.label}
              </option>
            ))}
          </select>
          <fieldset className="fieldset">
            <legend>Card</legend>
            {cards.length === 0 ? (
              <p className="empty-state-text">
                No saved {shop.service.provider === 'sandbox' ? 'test ' : ''}card yet.{' '}
                <button type="button" className="button button-small" onClick={() => void addCard()} disabled={busy}>
                  Add a card
                </button>
              </p>
            ) : (
              cards.map((card) => (
                <label key={card.id} className="checkbox">
                  <input type="radio" name="plan-card" value={card.id} checked={cardId === card.id} onChange={() => setCardId(card.id)} />
                  {cardName(card)} · expires {String(card.expMonth).padStart(2, '0')}/{card.expYear}
                </label>
              ))
            )}
          </fieldset>
          {at && !checked ? (
            <p className="muted" aria-live="polite">
              First charge {formatLongDate(at.toUTC().toISO() ?? '', zone)}, then {cadence({ product, interval })} {reminderWords(day)} of
              the month at {at.toFormat('h:mm a')}.
            </p>
          ) : null}
          <FormError message={error} />
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={busy || cards.length === 0}>
              {busy ? 'Starting…' : `Start the plan`}
            </button>
            <Link className="button button-ghost" to={links.storefront(guid, serviceId)}>
              Back
            </Link>
          </div>
        </form>
      </section>
    </Page>
  );
}

/** /billing/plans/{id}: a plan with its charges, as its payer or seller sees it. */
export function PlanPage() {
  return (
    <RequireAuth>
      <PlanDetails />
    </RequireAuth>
  );
}

function PlanDetails() {
  const { planId = '' } = useParams();
  const { token, profile } = useSession();
  const [plan, setPlan] = useState<PlanView | null>(null);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState('');
  const tz = profile?.tz;
  const load = useCallback(
    (): Promise<void> =>
      getPlan(planId).then(
        (answer) => setPlan(answer.plan),
        (failure: unknown) => (failure instanceof ApiError && failure.status < 500 ? setMissing(true) : setError(errorText(failure))),
      ),
    [planId],
  );
  useEffect(() => {
    void load();
  }, [load, token]);

  if (missing) return <NotFoundPage />;
  if (!plan) return <Page title="Plan">{error ? <FormError message={error} /> : <p role="status">Loading…</p>}</Page>;
  return (
    <Page
      title={`${plan.product.name}: ${cadence(plan)}`}
      lead={plan.role === 'payer' ? `Paid to ${plan.seller.name || plan.service.name}` : 'A customer pays you'}
    >
      <div className="stack">
        <section className="card order-summary" aria-labelledby="plan-heading">
          <div className="section-head">
            <h2 id="plan-heading">Plan</h2>
            <PlanStateBadge state={plan.state} />
          </div>
          {plan.lastError && plan.state !== 'cancelled' ? (
            <p className="notice notice-error" role="alert">
              The last charge failed: {plan.lastError}{' '}
              {plan.state === 'past_due' ? (
                <>
                  It is tried again on {formatLongDate(plan.nextCharge ?? '', tz)}. <Link to={links.billing()}>Change the card</Link>
                </>
              ) : (
                'The plan stopped charging.'
              )}
            </p>
          ) : null}
          <dl className="details">
            <dt>Service</dt>
            <dd>{plan.service.name}</dd>
            <dt>Amount</dt>
            <dd>
              <strong>{cadence(plan)}</strong>, {reminderWords(plan.reminderDay)} of the month
            </dd>
            <dt>Started</dt>
            <dd>
              {formatLongDate(plan.start, tz)} <small className="muted">({plan.timeZone})</small>
            </dd>
            <dt>Next charge</dt>
            <dd>{plan.nextCharge ? formatLongDate(plan.nextCharge, tz) : 'None'}</dd>
            {plan.role === 'payer' ? (
              <>
                <dt>Card</dt>
                <dd>{plan.paymentMethod ? cardName(plan.paymentMethod) : 'None'}</dd>
              </>
            ) : null}
            <dt>Paid</dt>
            <dd>{plan.paidPeriods === 1 ? '1 time' : `${plan.paidPeriods} times`}</dd>
            {plan.cancelled ? (
              <>
                <dt>Cancelled</dt>
                <dd>{formatLongDate(plan.cancelled, tz)}</dd>
              </>
            ) : null}
          </dl>
          {plan.state !== 'cancelled' ? (
            <button
              type="button"
              className="button button-ghost align-start"
              onClick={() =>
                void confirmCancelPlan(plan).then((done) => {
                  if (done) void load();
                })
              }
            >
              Cancel the plan
            </button>
          ) : null}
        </section>
        <section className="card account-card" aria-labelledby="charges-heading">
          <h2 id="charges-heading">Charges</h2>
          {plan.charges.length === 0 ? (
            <p className="empty-state-text">
              No charges yet{plan.nextCharge ? `: the first is on ${formatLongDate(plan.nextCharge, tz)}` : ''}.
            </p>
          ) : (
            <ol className="file-list charge-list" aria-label="Charges, newest first">
              {plan.charges.map((c) => (
                <li key={c.id} className="file-row">
                  <span className="file-name">
                    <strong>{formatLongDate(c.due, tz)}</strong>
                    <small>
                      Charge {c.period + 1}
                      {c.attempts > 1 ? ` · ${c.attempts} tries` : ''}
                      {c.error ? ` · ${c.error}` : ''}
                    </small>
                  </span>
                  <span className="actions">
                    <span>{formatUsd(c.amount)}</span>
                    <span className={`badge ${c.state === 'paid' ? 'badge-success' : 'badge-danger'}`}>{c.state}</span>
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
      <p>
        <Link to={links.billing()}>Back to billing</Link>
      </p>
    </Page>
  );
}
