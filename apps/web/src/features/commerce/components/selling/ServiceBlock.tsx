import { formatUsd, type ProductView, type ServiceView } from '@tinkerdesk/contracts/web';
import { errorText } from '../../../../shared/api';
import { afterRemoval, InlinePanel, useDisclosure } from '../../../../shared/disclosure';
import { FormError } from '../../../../shared/forms';
import { InlineConfirm } from '../../../../shared/InlineConfirm';
import { session, useSession } from '../../../../shared/session/session';
import { useDeleteProduct, useProducts, useSaveProduct } from '../../hooks/selling';
import { ProductForm } from './ProductForm';
import { RequestForm } from './RequestForm';
import { ShopLink } from './ShopLink';

/** What is open in a service's block: one form or confirmation at a time, each next to what opened it. */
type Panel = 'new' | 'custom' | `edit:${string}` | `request:${string}` | `delete:${string}`;

/**
 * One service: its links, a custom amount request, its products (edit, request payment, activate, delete) and the product form.
 * `editOpener` is the Edit service button's attributes (its form is the section's: shared/disclosure.tsx).
 */
export function ServiceBlock({ service, onEdit, editOpener }: { service: ServiceView; onEdit: () => void; editOpener?: { id: string } }) {
  const { token, profile } = useSession();
  const guid = profile?.guid ?? '';
  const panel = useDisclosure<Panel>();
  const products = useProducts(guid, service.id);
  const removal = useDeleteProduct(guid, service.id);
  const toggling = useSaveProduct(guid, service.id);

  function remove(product: ProductView) {
    if (!token) return;
    removal.mutate(product.id, {
      onSuccess: ({ deleted }) => {
        session.notify({
          tag: 'product',
          type: 'success',
          content: deleted ? `${product.name} is deleted.` : `${product.name} has orders, so it is deactivated instead of deleted.`,
          timeout: 6000,
        });
        // Gone: the focus goes to the next product's Delete (else the one before, else the service's heading).
        const ids = (products.data?.products ?? []).map((p) => panel.openerId(`delete:${p.id}`));
        const index = (products.data?.products ?? []).findIndex((p) => p.id === product.id);
        panel.close(deleted ? afterRemoval(ids, index, `service-${service.id}`) : undefined);
      },
    });
  }

  function toggle(product: ProductView) {
    if (!token) return;
    toggling.mutate({ body: { active: !product.active }, productId: product.id });
  }

  const failure = [removal, toggling].find((m) => m.isError)?.error ?? products.error;
  const list = products.data?.products ?? null;
  return (
    <article className="service-block" aria-labelledby={`service-${service.id}`}>
      <div className="section-head">
        <h3 id={`service-${service.id}`}>{service.name}</h3>
        <span className="muted">
          {service.provider === 'sandbox' ? 'Sandbox' : 'Stripe'} · {service.vendor}
        </span>
      </div>
      <p className="muted">Buyers see you as {service.displayName}.</p>
      <ShopLink service={service} guid={guid} onEdit={onEdit} />
      <p className="service-links">
        <button type="button" className="button button-small button-ghost" {...editOpener} onClick={onEdit}>
          Edit service
        </button>
        {service.vendor === 'mail' ? null : (
          <button
            type="button"
            className="button button-small button-ghost"
            {...panel.opener('custom')}
            aria-label={`Request a custom amount for ${service.name}`}
          >
            Request a custom amount
          </button>
        )}
      </p>
      {panel.shown === 'custom' ? (
        <InlinePanel disclosure={panel}>
          <RequestForm service={service} onDone={panel.close} />
        </InlinePanel>
      ) : null}
      <FormError message={failure ? errorText(failure) : ''} />
      {list === null ? (
        <p role="status">Loading…</p>
      ) : list.length === 0 && panel.shown !== 'new' ? (
        <p className="empty-state-text">No products yet: add one so buyers can order it from the public page.</p>
      ) : (
        <ul className="file-list">
          {list.map((product) => (
            <li key={product.id} className="file-row">
              <span className="file-name">
                <strong>{product.name}</strong>
                <small>
                  {formatUsd(product.price)}
                  {product.active ? '' : ' · inactive'}
                </small>
              </span>
              {panel.shown === `delete:${product.id}` ? (
                <InlineConfirm
                  label={`Delete ${product.name}?`}
                  question="Delete it?"
                  action="Delete"
                  onConfirm={() => remove(product)}
                  onCancel={panel.close}
                />
              ) : (
                <span className="file-actions">
                  <button
                    type="button"
                    className="button button-small"
                    {...panel.opener(`edit:${product.id}`)}
                    aria-label={`Edit ${product.name}`}
                  >
                    Edit
                  </button>
                  {product.active ? (
                    <button
                      type="button"
                      className="button button-small button-ghost"
                      {...panel.opener(`request:${product.id}`)}
                      aria-label={`Request payment for ${product.name}`}
                    >
                      Request payment
                    </button>
                  ) : null}
                  <button type="button" className="button button-small button-ghost" onClick={() => toggle(product)}>
                    {product.active ? 'Deactivate' : 'Activate'}
                  </button>
                  <button
                    type="button"
                    className="button button-small button-ghost"
                    {...panel.opener(`delete:${product.id}`)}
                    aria-label={`Delete ${product.name}`}
                  >
                    Delete
                  </button>
                </span>
              )}
              {panel.shown === `edit:${product.id}` ? (
                <InlinePanel disclosure={panel}>
                  <ProductForm service={service} existing={product} onDone={panel.close} />
                </InlinePanel>
              ) : panel.shown === `request:${product.id}` ? (
                <InlinePanel disclosure={panel}>
                  <RequestForm service={service} product={product} onDone={panel.close} />
                </InlinePanel>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {panel.shown === 'new' ? (
        <InlinePanel disclosure={panel}>
          <ProductForm service={service} onDone={panel.close} />
        </InlinePanel>
      ) : (
        <button type="button" className="button button-small" {...panel.opener('new')}>
          Add product
        </button>
      )}
    </article>
  );
}
