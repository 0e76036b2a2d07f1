/**
 * The state machine of the plan form (/billing/plans/new?seller&service&product): the shop and the
 * saved cards it can use load through TanStack Query; the schedule (how often, the first charge in a
 * time zone, the day of the month) and the card are the user's; the first charge is checked again
 * 200 ms after the last change and at once on submit; starting the plan opens it, adding a card goes
 * to the provider's card page and comes back here with that card chosen (`returnedCard`, ?card=).
 */
import {
  CALENDAR_MIN_GAP_MINUTES,
  formatLongDate,
  linkBuilder,
  type PaymentInstrumentView,
  type PlanInterval,
} from '@tinkerdesk/contracts/web';
import { DateTime } from 'luxon';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, errorText } from '../../../shared/api';
import { VALIDATION_DELAY_MS } from '../../../shared/forms';
import { session as sessionStore, useSession } from '../../../shared/session/session';
import { PENDING_PLAN_KEY } from '../pages/BillingPage';
import { useCreatePlan } from './plans';
import { useInstruments, useStartCardSetup } from './queries';
import { useStorefront } from './shop';

const links = linkBuilder();

/** The form's time (a wall time in `zone`) as an instant, or null when it is not one. */
export function instantOf(local: string, zone: string): DateTime | null {
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

/** The shop, the product and the saved cards of the shop's provider; an answer under 500 is a missing page. */
function usePlanSubject(guid: string, serviceId: string, productId: string) {
  const shop = useStorefront(guid, serviceId);
  const instruments = useInstruments();
  const failure = shop.error ?? instruments.error;
  const provider = shop.data?.service.provider;
  const cards: PaymentInstrumentView[] | null =
    shop.data && instruments.data ? instruments.data.instruments.filter((c) => c.provider === provider) : null;
  return {
    shop: shop.data ?? null,
    product: shop.data?.products.find((p) => p.id === productId) ?? null,
    cards,
    missing: failure instanceof ApiError && failure.status < 500,
    loadError: failure ? errorText(failure) : '',
  };
}

export function usePlanForm(guid: string, serviceId: string, productId: string, returnedCard = '') {
  const { profile } = useSession();
  const navigate = useNavigate();
  const subject = usePlanSubject(guid, serviceId, productId);
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const [zone, setZone] = useState(profile?.tz || browserZone || 'UTC');
  const [interval, setPlanInterval] = useState<PlanInterval>('month');
  const [start, setStart] = useState(() => defaultStart(profile?.tz || browserZone || 'UTC'));
  const [reminderDay, setReminderDay] = useState<number | null>(null);
  const [chosenCard, setCardId] = useState(returnedCard);
  const [checked, setChecked] = useState('');
  // Said before anything is sent: no card chosen.
  const [noCard, setNoCard] = useState(false);
  const create = useCreatePlan();
  const cardSetup = useStartCardSetup();

  const cards = subject.cards ?? [];
  // The card chosen, else the default one of the shop's provider, else the first.
  const cardId = cards.some((c) => c.id === chosenCard) ? chosenCard : ((cards.find((c) => c.default) ?? cards[0])?.id ?? '');
  const at = instantOf(start, zone);
  // The reminder day follows the first charge's day until chosen (the 29th–31st: the last day).
  const day = reminderDay ?? (at ? (at.day > 28 ? -1 : at.day) : 1);
  // Re-checked 200 ms after the last change (VALIDATION_DELAY_MS), so typing does not flash errors.
  useEffect(() => {
    const timer = setTimeout(() => setChecked(startProblem(instantOf(start, zone))), VALIDATION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [start, zone]);

  // Both go on to another page: the form stays disabled until it is shown.
  const busy = create.isPending || create.isSuccess || cardSetup.isPending || cardSetup.isSuccess;
  const failure = create.error ?? cardSetup.error;
  const error = noCard ? 'Choose a card, or add one.' : failure ? errorText(failure) : '';
  // Why "Start the plan" cannot be pressed (said next to it), or '' when it can.
  const blocked = busy ? '' : cards.length === 0 ? 'Add a card first: the plan charges a saved card.' : '';

  function addCard() {
    setNoCard(false);
    create.reset();
    sessionStorage.setItem(PENDING_PLAN_KEY, links.newPlan(guid, serviceId, productId));
    cardSetup.mutate(subject.shop?.service.provider, { onSuccess: ({ setup }) => window.location.assign(setup.url) });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = startProblem(instantOf(start, zone));
    setChecked(problem);
    if (problem || !at || !subject.product) return;
    setNoCard(!cardId);
    if (!cardId) return;
    cardSetup.reset();
    create.mutate(
      {
        service: serviceId,
        product: subject.product.id,
        interval,
        reminderDay: day,
        start: at.toISO() ?? '',
        timeZone: zone,
        paymentMethod: cardId,
      },
      {
        onSuccess: ({ plan }) => {
          sessionStore.notify({
            tag: `plan-${plan.id}`,
            type: 'success',
            content: `Your plan for ${plan.product.name} is set: the first charge is on ${formatLongDate(plan.start, zone)}.`,
            timeout: 8000,
          });
          void navigate(links.plan(plan.id));
        },
      },
    );
  }

  return {
    ...subject,
    fields: { zone, interval, start, day, cardId },
    set: { zone: setZone, interval: setPlanInterval, start: setStart, day: setReminderDay, card: setCardId },
    at,
    checked,
    busy,
    blocked,
    error,
    addCard,
    submit,
  };
}

export type PlanFormState = ReturnType<typeof usePlanForm>;
