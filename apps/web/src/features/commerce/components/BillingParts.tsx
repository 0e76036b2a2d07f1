import {
  formatLongDate,
  formatUsd,
  linkBuilder,
  type PaymentInstrumentView,
  type PaymentProviderId,
  type PlanInterval,
  type PlanState,
  type PlanView,
} from '@tinkerdesk/contracts/web';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { errorText } from '../../../shared/api';
import { afterRemoval, useDisclosure } from '../../../shared/disclosure';
import { FormError } from '../../../shared/forms';
import { InlineConfirm } from '../../../shared/InlineConfirm';
import { session as sessionStore, useSession } from '../../../shared/session/session';
import { cancelPlan } from '../api';
import { useDeleteCard, useInstruments, useInvalidateBilling, useMakeDefaultCard, usePlans, useStartCardSetup } from '../hooks/queries';

const links = linkBuilder();

const INTERVAL_WORDS: Record<PlanInterval, string> = { month: 'a month', quarter: 'every 3 months', year: 'a year' };

/** "$25.00 a month". */
export const cadence = (plan: Pick<PlanView, 'product' | 'interval'>) =>
  `${formatUsd(plan.product.price)} ${INTERVAL_WORDS[plan.interval]}`;

const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/** "on the last day", "on the 1st". */
export const reminderWords = (index: number) => (index === -1 ? 'on the last day' : `on the ${ordinal(index)}`);

const STATE_WORDS: Record<PlanState, string> = { active: 'active', past_due: 'payment failed', unpaid: 'unpaid', cancelled: 'cancelled' };

export function PlanStateBadge({ state }: { state: PlanState }) {
  const tone = state === 'active' ? 'badge-success' : state === 'cancelled' ? '' : 'badge-danger';
  return <span className={`badge ${tone}`.trim()}>{STATE_WORDS[state]}</span>;
}

/** "Visa •••• 4242". */
export const cardName = (card: Pick<PaymentInstrumentView, 'brand' | 'last4'>) =>
  `${card.brand === 'unknown' ? 'Card' : card.brand.charAt(0).toUpperCase() + card.brand.slice(1)} •••• ${card.last4}`;

/** Whether a plan's first charge is behind it (charged, or its time has come). */
export const planStarted = (plan: Pick<PlanView, 'start' | 'paidPeriods' | 'charges'>): boolean =>
  plan.paidPeriods > 0 || plan.charges.length > 0 || Date.parse(plan.start) <= Date.now();

/**
 * A plan's Cancel, which asks first in its place (docs/web-app.md#inline-forms). Once the plan is
 * cancelled the button goes: the focus goes to the element with id `focusAfter`, then `onCancelled` runs.
 */
export function CancelPlan({
  plan,
  focusAfter,
  onCancelled,
  className = 'button button-small button-ghost',
  children,
  ...attributes
}: {
  plan: PlanView;
  focusAfter: string;
  onCancelled: () => void;
  className?: string;
  children: ReactNode;
  'aria-label'?: string;
}) {
  const confirming = useDisclosure();
  const [busy, setBusy] = useState(false);
  async function cancel() {
    setBusy(true);
    try {
      await cancelPlan(plan.id);
      sessionStore.notify({
        tag: `plan-${plan.id}`,
        type: 'success',
        content: `The plan for ${plan.product.name} is cancelled.`,
        timeout: 6000,
      });
      confirming.close(focusAfter);
      onCancelled();
    } catch (failure) {
      sessionStore.notify({ tag: `plan-${plan.id}`, type: 'error', content: errorText(failure) });
      confirming.close();
    } finally {
      setBusy(false);
    }
  }
  if (!confirming.shown)
    return (
      <button type="button" className={className} {...attributes} {...confirming.opener('open')}>
        {children}
      </button>
    );
  return (
    <InlineConfirm
      label="Cancel this plan?"
      question={
        plan.role === 'payer'
          ? `${plan.product.name}, ${cadence(plan)}: nothing more will be charged to your card. Charges made so far stay paid.`
          : `${plan.product.name}, ${cadence(plan)}: your customer will not be charged any more.`
      }
      action="Cancel the plan"
      keep="Keep the plan"
      busy={busy}
      onConfirm={() => void cancel()}
      onCancel={() => confirming.close()}
    />
  );
}

/** Saved cards: add (the provider's page), make default, delete (another card takes over its plans). */
export function PaymentMethodsSection() {
  const instruments = useInstruments();
  const setup = useStartCardSetup();
  const makeDefault = useMakeDefaultCard();
  const removal = useDeleteCard();
  // The card whose Delete asks first (docs/web-app.md#inline-forms).
  const confirming = useDisclosure<string>();
  const cards = instruments.data?.instruments ?? null;
  const providers = instruments.data?.providers ?? [];
  // What the user asked for that cannot be done as asked (not a failed request).
  const [refusal, setRefusal] = useState('');
  const busy =
    setup.isPending || setup.isSuccess
      ? 'add'
      : makeDefault.isPending
        ? makeDefault.variables
        : removal.isPending
          ? removal.variables.id
          : null;
  const failure = [setup, makeDefault, removal].find((m) => m.isError)?.error ?? instruments.error;
  const error = refusal || (failure ? errorText(failure) : '');

  function reset() {
    setRefusal('');
    for (const mutation of [setup, makeDefault, removal]) mutation.reset();
  }

  function add(provider: PaymentProviderId | undefined) {
    reset();
    setup.mutate(provider, { onSuccess: ({ setup: { url } }) => window.location.assign(url) });
  }

  const done = (content: string) => () => sessionStore.notify({ tag: 'payment-method', type: 'success', content, timeout: 5000 });

  function makeDefaultCard(card: PaymentInstrumentView) {
    reset();
    makeDefault.mutate(card.id, { onSuccess: done(`${cardName(card)} is your default card now.`) });
  }

  /** Delete asks first in the card's row; a card that pays plans asks which card takes them over. */
  function ask(card: PaymentInstrumentView) {
    const others = (cards ?? []).filter((c) => c.id !== card.id && c.provider === card.provider);
    reset();
    if (card.plans > 0 && others.length === 0)
      return setRefusal(
        `${cardName(card)} pays for ${card.plans === 1 ? 'a plan' : `${card.plans} plans`}: add another card first, then delete this one.`,
      );
    confirming.open(card.id);
  }

  function remove(card: PaymentInstrumentView, replacement?: string) {
    reset();
    const ids = (cards ?? []).map((c) => confirming.openerId(c.id));
    const index = (cards ?? []).findIndex((c) => c.id === card.id);
    removal.mutate(
      { id: card.id, ...(replacement ? { replacement } : {}) },
      {
        onSuccess: () => {
          done(`${cardName(card)} is deleted.`)();
          // Gone: the focus goes to the next card's Delete (else the one before, else the heading).
          confirming.close(afterRemoval(ids, index, 'cards-heading'));
        },
        onError: () => confirming.close(),
      },
    );
  }

  /** The confirmation in `card`'s row: Delete, or (when it pays plans) one "Move to … and delete" per other card. */
  function confirmation(card: PaymentInstrumentView) {
    const others = (cards ?? []).filter((c) => c.id !== card.id && c.provider === card.provider);
    const plans = card.plans === 1 ? 'a plan' : `${card.plans} plans`;
    const moves = others.map((o) => ({ action: `Move to ${cardName(o)} and delete`, onConfirm: () => remove(card, o.id) }));
    const [first, ...rest] = card.plans > 0 ? moves : [{ action: 'Delete the card', onConfirm: () => remove(card) }];
    return (
      <InlineConfirm
        label={`Delete ${cardName(card)}?`}
        question={
          card.plans > 0
            ? `It pays for ${plans}. Choose the card that pays ${card.plans === 1 ? 'it' : 'them'} from now on.`
            : 'It is removed from your account and from the payment provider.'
        }
        action={first?.action ?? 'Delete the card'}
        also={rest}
        keep="Keep the card"
        busy={busy !== null}
        onConfirm={first?.onConfirm ?? (() => remove(card))}
        onCancel={() => confirming.close()}
      />
    );
  }

  return (
    <section className="card account-card" aria-labelledby="cards-heading">
      <div className="section-head">
        <h2 id="cards-heading">Payment methods</h2>
        <span className="actions">
          {providers.length > 1 && providers.includes('sandbox') ? (
            <button type="button" className="button button-small" onClick={() => add('sandbox')} disabled={busy !== null}>
              Add a test card
            </button>
          ) : null}
          <button type="button" className="button button-primary button-small" onClick={() => add(providers[0])} disabled={busy !== null}>
            {busy === 'add' ? 'Opening…' : 'Add a card'}
          </button>
        </span>
      </div>
      <FormError message={error} />
      {cards === null ? (
        error ? null : (
          <p role="status">Loading…</p>
        )
      ) : cards.length === 0 ? (
        <p className="empty-state-text">No saved cards. Add one to pay for plans: it is kept by the payment provider, never here.</p>
      ) : (
        <ul className="file-list" aria-label="Saved cards">
          {cards.map((card) => (
            <li key={card.id} className="file-row">
              <span className="file-name">
                <strong>{cardName(card)}</strong>
                <small>
                  Expires {String(card.expMonth).padStart(2, '0')}/{card.expYear}
                  {card.provider === 'sandbox' ? ' · test card' : ''}
                  {card.plans > 0 ? ` · pays ${card.plans === 1 ? '1 plan' : `${card.plans} plans`}` : ''}
                </small>
              </span>
              {confirming.shown === card.id ? (
                confirmation(card)
              ) : (
                <span className="actions">
                  {card.default ? (
                    <span className="badge badge-success">Default</span>
                  ) : (
                    <button
                      type="button"
                      className="button button-small"
                      disabled={busy !== null}
                      aria-label={`Make ${cardName(card)} the default`}
                      onClick={() => makeDefaultCard(card)}
                    >
                      Make default
                    </button>
                  )}
                  <button
                    type="button"
                    className="button button-small button-ghost"
                    disabled={busy !== null}
                    {...confirming.opener(card.id)}
                    aria-label={`Delete ${cardName(card)}`}
                    onClick={() => ask(card)}
                  >
                    Delete
                  </button>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The plans the user pays and the ones that pay them; cancel after a prompt. */
export function PlansSection() {
  const { profile } = useSession();
  const query = usePlans();
  const invalidate = useInvalidateBilling();
  const plans = query.data?.plans ?? null;
  const error = query.error ? errorText(query.error) : '';

  return (
    <section className="card account-card" aria-labelledby="plans-heading">
      <h2 id="plans-heading">Plans</h2>
      <FormError message={error} />
      {plans === null ? (
        error ? null : (
          <p role="status">Loading…</p>
        )
      ) : plans.length === 0 ? (
        <p className="empty-state-text">
          No plans. To pay for something regularly, open the seller’s page and choose “Pay regularly” next to the product.
        </p>
      ) : (
        <ul className="file-list" aria-label="Your plans">
          {plans.map((plan) => (
            <li key={plan.id} className="file-row">
              <span className="file-name">
                <Link to={links.plan(plan.id)} id={`plan-${plan.id}`}>
                  <strong>
                    {plan.product.name}: {cadence(plan)}
                  </strong>
                </Link>
                <small>
                  {plan.role === 'payer' ? `to ${plan.seller.name}` : 'paid to you'} ·{' '}
                  {plan.nextCharge && !planStarted(plan)
                    ? `starts on ${formatLongDate(plan.start, profile?.tz)}`
                    : plan.nextCharge
                      ? `next charge ${formatLongDate(plan.nextCharge, profile?.tz)}`
                      : plan.cancelled
                        ? `cancelled ${formatLongDate(plan.cancelled, profile?.tz)}`
                        : 'no more charges'}
                  {plan.role === 'payer' && plan.paymentMethod ? ` · ${cardName(plan.paymentMethod)}` : ''}
                </small>
                {plan.lastError && plan.state !== 'cancelled' ? <small className="error-text">{plan.lastError}</small> : null}
              </span>
              <span className="actions">
                <PlanStateBadge state={plan.state} />
                {plan.state !== 'cancelled' ? (
                  <CancelPlan
                    plan={plan}
                    focusAfter={`plan-${plan.id}`}
                    onCancelled={invalidate}
                    aria-label={`Cancel the plan for ${plan.product.name}`}
                  >
                    Cancel
                  </CancelPlan>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
