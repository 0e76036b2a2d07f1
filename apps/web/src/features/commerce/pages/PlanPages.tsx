import { formatLongDate, formatUsd, linkBuilder } from '@tinkerdesk/contracts/web';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { PATHS } from '../../../routes/paths';
import { Page } from '../../../shared/Page';
import { useSession } from '../../../shared/session/session';
import { RequireAuth } from '../../auth/RequireAuth';
import { NotFoundPage } from '../../info/pages/NotFoundPage';
import { cadence, reminderWords } from '../components/BillingParts';
import { PlanCardChoice, PlanCharges, PlanScheduleFields, PlanSummary } from '../components/PlanParts';
import { usePlan } from '../hooks/plans';
import { useInvalidateBilling } from '../hooks/queries';
import { usePlanForm } from '../hooks/usePlanForm';

const links = linkBuilder();

/**
 * /billing/plans/new?seller&service&product: start a plan for a product, charged to a saved card. The
 * address is made by a shop's "Pay regularly" link; without its query (typed, or a link cut short) the
 * page says where plans are started instead of "Page not found".
 */
export function PlanNewPage() {
  const [params] = useSearchParams();
  if (!params.get('seller') || !params.get('service') || !params.get('product')) return <PlanStartsFromAShop />;
  return (
    <RequireAuth>
      <PlanForm />
    </RequireAuth>
  );
}

/** The page without a product to pay for: where plans are started, and where the user's plans are. */
function PlanStartsFromAShop() {
  return (
    <Page title="Start a plan" lead={<>A plan pays a seller regularly for one of their products.</>}>
      <section className="card account-card" aria-labelledby="plan-start-heading">
        <h2 id="plan-start-heading">Choose the product first</h2>
        {/* One block: its paragraphs' margins collapse (the card is a grid, where they would add up). */}
        <div>
          <p>
            Plans are started from a seller’s page: open it (the seller shares its link) and choose “Pay regularly” next to the product you
            want to pay for regularly.
          </p>
          <p>
            <Link to={PATHS.billingPlans}>See your plans</Link>
          </p>
        </div>
      </section>
    </Page>
  );
}

function PlanForm() {
  const [params] = useSearchParams();
  const guid = params.get('seller') ?? '';
  const serviceId = params.get('service') ?? '';
  const productId = params.get('product') ?? '';
  const plan = usePlanForm(guid, serviceId, productId, params.get('card') ?? '');
  const { shop, product, cards, at, checked, fields } = plan;

  if (plan.missing || (shop && !product)) return <NotFoundPage />;
  if (!shop || !product || cards === null)
    return <Page title="Start a plan">{plan.loadError ? <FormError message={plan.loadError} /> : <p role="status">Loading…</p>}</Page>;
  if (product.shipping)
    return (
      <Page title="Start a plan">
        <p className="notice">{product.name} is shipped: order it each time from the seller’s page instead.</p>
        <Link to={links.storefront(guid, serviceId)}>Back to {shop.service.name}</Link>
      </Page>
    );

  return (
    <Page
      title="Start a plan"
      lead={
        <>
          Pay {shop.seller.name} regularly for {product.name}.
        </>
      }
    >
      <section className="card account-card">
        <form className="form form-flat" onSubmit={plan.submit} noValidate aria-label="Start a plan">
          <p>
            <strong>{product.name}</strong> · {formatUsd(product.price)} each time · {shop.service.name}
          </p>
          <PlanScheduleFields plan={plan} />
          <PlanCardChoice plan={plan} sandbox={shop.service.provider === 'sandbox'} />
          {at && !checked ? (
            <p className="muted" aria-live="polite">
              Starts on {formatLongDate(at.toUTC().toISO() ?? '', fields.zone)} with a first charge of {formatUsd(product.price)}, then{' '}
              {cadence({ product, interval: fields.interval })} {reminderWords(fields.day)} of the month at {at.toFormat('h:mm a')}.
            </p>
          ) : null}
          <FormError message={plan.error} />
          <div className="actions">
            <button
              type="submit"
              className="button button-primary"
              disabled={plan.busy || cards.length === 0}
              aria-describedby={plan.blocked ? 'plan-start-blocked' : undefined}
            >
              {plan.busy ? 'Starting…' : `Start the plan`}
            </button>
            <Link className="button button-ghost" to={links.storefront(guid, serviceId)}>
              Back
            </Link>
          </div>
          {plan.blocked ? (
            <p id="plan-start-blocked" className="hint">
              {plan.blocked}
            </p>
          ) : null}
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
  const { profile } = useSession();
  const { data: plan, missing, error } = usePlan(planId);
  const reloadBilling = useInvalidateBilling();
  const tz = profile?.tz;

  if (missing) return <NotFoundPage />;
  if (!plan) return <Page title="Plan">{error ? <FormError message={errorText(error)} /> : <p role="status">Loading…</p>}</Page>;
  return (
    <Page
      title={`${plan.product.name}: ${cadence(plan)}`}
      lead={plan.role === 'payer' ? `Paid to ${plan.seller.name}` : 'A customer pays you'}
    >
      <div className="stack">
        <PlanSummary plan={plan} tz={tz} onCancelled={() => void reloadBilling()} />
        <PlanCharges plan={plan} tz={tz} />
      </div>
      <p>
        <Link to={links.billing()}>Back to billing</Link>
      </p>
    </Page>
  );
}
