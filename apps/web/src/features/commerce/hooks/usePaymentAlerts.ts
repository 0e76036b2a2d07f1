import { formatLongDate, formatUsd, linkBuilder } from '@tinkerdesk/contracts/web';
import { useEffect } from 'react';
import { session as sessionStore, useSession } from '../../../shared/session/session';
import { listPlans } from '../api';

const links = linkBuilder();

/**
 * Payment outcomes that need the payer (notifications: docs/web-app.md#session-and-local-database): once a signed-in session is
 * ready, each plan whose charge failed gets a notification tagged with the plan (a later one for the
 * same plan replaces it) that leads to billing, where another card can take the plan over.
 */
export function usePaymentAlerts(): void {
  const { ready, loggedIn, token, profile } = useSession();
  const tz = profile?.tz;
  useEffect(() => {
    if (!ready || !loggedIn || !token) return;
    let live = true;
    listPlans().then(
      ({ plans }) => {
        if (!live) return;
        for (const plan of plans) {
          if (plan.role !== 'payer' || (plan.state !== 'past_due' && plan.state !== 'unpaid')) continue;
          const price = formatUsd(plan.product.price);
          sessionStore.notify({
            tag: `plan-${plan.id}`,
            type: plan.state === 'unpaid' ? 'error' : 'warning',
            heading: plan.state === 'unpaid' ? 'A plan is unpaid' : 'A payment failed',
            content:
              plan.state === 'past_due' && plan.nextCharge
                ? `${price} for ${plan.product.name} could not be charged (${plan.lastError ?? 'declined'}). We try again on ${formatLongDate(plan.nextCharge, tz)}.`
                : `${price} for ${plan.product.name} could not be charged after several tries, so the plan stopped.`,
            button: {
              title: plan.state === 'past_due' ? 'Change the card' : 'See the plan',
              target: plan.state === 'past_due' ? links.billing() : links.plan(plan.id),
            },
          });
        }
      },
      // Alerts are a courtesy: /billing shows the same and says what went wrong.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [ready, loggedIn, token, tz]);
}
