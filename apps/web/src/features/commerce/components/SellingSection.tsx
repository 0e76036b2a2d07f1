import type { ServiceView } from '@tinkerdesk/contracts/web';
import { useState } from 'react';
import { errorText } from '../../../shared/api';
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
  const [editing, setEditing] = useState<ServiceView | 'new' | null>(null);
  return (
    <section className="card account-card selling" id="selling" aria-labelledby="selling-heading">
      <div className="section-head">
        <h2 id="selling-heading">Selling</h2>
        {editing === null ? (
          <button type="button" className="button button-small" onClick={() => setEditing('new')}>
            New service
          </button>
        ) : null}
      </div>
      {editing !== null ? (
        <ServiceForm existing={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />
      ) : listed.error ? (
        <FormError message={errorText(listed.error)} />
      ) : listed.isPending ? (
        <p role="status">Loading your services…</p>
      ) : services.length === 0 ? (
        <p className="empty-state-text">
          Sell from a public page: create a service (the built-in sandbox processor takes test payments with nothing to set up, or connect a
          Stripe account), add products, and share its link.
        </p>
      ) : null}
      {services.map((service) => (
        <ServiceBlock key={service.id} service={service} onEdit={() => setEditing(service)} />
      ))}
      {services.length > 0 ? <SellerOverview /> : null}
    </section>
  );
}
