import {
  CALENDAR_MIN_GAP_MINUTES,
  formatLongDate,
  formatUsd,
  linkBuilder,
  PLAN_INTERVALS,
  type PlanInterval,
  type PlanView,
  type ReminderDayRef,
  type TimeZoneRef,
} from '@tinkerdesk/contracts/web';
import { Link } from 'react-router-dom';
import { getReference } from '../api';
import type { PlanFormState } from '../hooks/usePlanForm';
import { useReference } from './AddressParts';
import { cadence, cardName, CancelPlan, planStarted, PlanStateBadge, reminderWords } from './BillingParts';

const links = linkBuilder();

const INTERVAL_LABELS: Record<PlanInterval, string> = { month: 'Every month', quarter: 'Every 3 months', year: 'Every year' };
const loadReminderDays = () => getReference('reminder-days') as Promise<ReminderDayRef[]>;
const loadTimeZones = () => getReference('time-zones') as Promise<TimeZoneRef[]>;

/** How often, the first charge (with its check), the day of the month and the time zone of a new plan. */
export function PlanScheduleFields({ plan }: { plan: PlanFormState }) {
  const { fields, set, checked } = plan;
  const reminderDays = useReference(loadReminderDays);
  const zones = useReference(loadTimeZones);
  const dayLabel = reminderDays.find((d) => d.index === fields.day)?.label ?? reminderWords(fields.day);
  return (
    <>
      <label htmlFor="plan-interval">How often</label>
      <select id="plan-interval" value={fields.interval} onChange={(e) => set.interval(e.target.value as PlanInterval)}>
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
        value={fields.start}
        aria-describedby="plan-start-hint"
        aria-invalid={checked ? true : undefined}
        onChange={(e) => set.start(e.target.value)}
      />
      <small id="plan-start-hint" className={checked ? 'error-text' : 'muted'}>
        {checked || `In ${fields.zone}; at least ${CALENDAR_MIN_GAP_MINUTES} minutes from now.`}
      </small>
      <label htmlFor="plan-day">Then charge on</label>
      <select id="plan-day" value={fields.day} onChange={(e) => set.day(Number(e.target.value))}>
        {(reminderDays.length ? reminderDays : [{ index: fields.day, value: String(fields.day), label: dayLabel }]).map((d) => (
          <option key={d.index} value={d.index}>
            {d.label}
          </option>
        ))}
      </select>
      <label htmlFor="plan-zone">Time zone</label>
      <select id="plan-zone" value={fields.zone} onChange={(e) => set.zone(e.target.value)}>
        {(zones.some((z) => z.name === fields.zone) ? zones : [{ name: fields.zone, label: fields.zone, offset: 0 }, ...zones]).map((z) => (
          <option key={z.name} value={z.name}>
            {z.label}
          </option>
        ))}
      </select>
    </>
  );
}

/** The saved cards of the shop's provider to charge, or a way to add one. */
export function PlanCardChoice({ plan, sandbox }: { plan: PlanFormState; sandbox: boolean }) {
  const cards = plan.cards ?? [];
  return (
    <fieldset className="fieldset">
      <legend>Card</legend>
      {cards.length === 0 ? (
        <p className="empty-state-text">
          No saved {sandbox ? 'test ' : ''}card yet.{' '}
          <button type="button" className="button button-small" onClick={plan.addCard} disabled={plan.busy}>
            Add a card
          </button>
        </p>
      ) : (
        cards.map((card) => (
          <label key={card.id} className="checkbox">
            <input
              type="radio"
              name="plan-card"
              value={card.id}
              checked={plan.fields.cardId === card.id}
              onChange={() => plan.set.card(card.id)}
            />
            {cardName(card)} · expires {String(card.expMonth).padStart(2, '0')}/{card.expYear}
          </label>
        ))
      )}
    </fieldset>
  );
}

/** What a plan is: its state, the last failure, amount, dates, card; cancel while it runs. */
export function PlanSummary({ plan, tz, onCancelled }: { plan: PlanView; tz?: string; onCancelled: () => void }) {
  return (
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
          {/* The first charge is on the start date, the later ones on the reminder day: "…, on the 1st of the month" beside a
              start on the 28th read as a contradiction. */}
          <strong>{cadence(plan)}</strong>: first on the start date, then {reminderWords(plan.reminderDay)} of the month
        </dd>
        <dt>{planStarted(plan) ? 'Started' : 'Starts on'}</dt>
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
        <CancelPlan plan={plan} focusAfter="plan-heading" onCancelled={onCancelled} className="button button-ghost align-start">
          Cancel the plan
        </CancelPlan>
      ) : null}
    </section>
  );
}

/** A plan's charges, newest first. */
export function PlanCharges({ plan, tz }: { plan: PlanView; tz?: string }) {
  return (
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
  );
}
