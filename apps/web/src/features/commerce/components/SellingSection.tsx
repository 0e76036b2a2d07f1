import type { ServiceView } from '@tinkerdesk/contracts/web';
import { errorText } from '../../../shared/api';
import { InlinePanel, useDisclosure } from '../../../shared/disclosure';
import { FormError } from '../../../shared/forms';
import { useSession } from '../../../shared/session/session';
import { useServices } from '../hooks/selling';
import { SellerOverview } from './SellerOverview';
import { ServiceBlock } from './selling/ServiceBlock';
import { ServiceForm } from './selling/ServiceForm';

/** /account/selling: services (create, edit, check the account), their products, the seller's overview (my orders: /account/orders). */
export function SellingSection() {
  const { profile } = useSession();
  const listed = useServices(profile?.guid);
  const services = (listed.data ?? []) as ServiceView[];
  // 'new', or the id of the service being edited: its form opens where the service is.
  const form = useDisclosure<string>();
  const editing = form.shown;
  return (
    <section className="card account-card selling" id="selling" aria-labelledby="selling-heading">
      <div className="section-head">
        <h2 id="selling-heading">Selling</h2>
        {editing === null ? (
          <button type="button" className="button button-small" {...form.opener('new')}>
            New service
          </button>
        ) : null}
      </div>
      {editing === 'new' ? (
        <InlinePanel disclosure={form}>
          <ServiceForm onDone={form.close} />
        </InlinePanel>
      ) : null}
      {editing !== null ? null : listed.error ? (
        <FormError message={errorText(listed.error)} />
      ) : listed.isPending ? (
        <p role="status">Loading your services…</p>
      ) : services.length === 0 ? (
        <p className="empty-state-text">
          Sell from a public page: create a service (the built-in sandbox processor takes test payments with nothing to set up, or connect a
          Stripe account), add products, and share its link.
        </p>
      ) : null}
      {services.map((service) =>
        editing === service.id ? (
          <InlinePanel key={service.id} disclosure={form}>
            <ServiceForm existing={service} onDone={form.close} />
          </InlinePanel>
        ) : (
          <ServiceBlock
            key={service.id}
            service={service}
            editOpener={{ id: form.opener(service.id).id }}
            onEdit={() => form.open(service.id)}
          />
        ),
      )}
      {services.length > 0 ? <SellerOverview /> : null}
    </section>
  );
}
