import { formatUsd, type ProductView, type ServiceView } from '@tinkerdesk/contracts/web';
import { useState } from 'react';
import { errorText } from '../../../../shared/api';
import { FormError } from '../../../../shared/forms';
import { InlineConfirm } from '../../../../shared/InlineConfirm';
import { session, useSession } from '../../../../shared/session/session';
import { useDeleteProduct, useProducts, useSaveProduct } from '../../hooks/selling';
import { ProductForm } from './ProductForm';
import { RequestForm } from './RequestForm';
import { ShopLink } from './ShopLink';

/** One service: its links, a custom amount request, its products (edit, request payment, activate, delete) and the product form. */
export function ServiceBlock({ service, onEdit }: { service: ServiceView; onEdit: () => void }) {
  const { token, profile } = useSession();
  const guid = profile?.guid ?? '';
  const [editing, setEditing] = useState<ProductView | 'new' | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [requesting, setRequesting] = useState<ProductView | 'custom' | null>(null);
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
        setConfirming(null);
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
        <button type="button" className="button button-small button-ghost" onClick={onEdit}>
          Edit service
        </button>
        {service.vendor === 'mail' ? null : (
          <button
            type="button"
            className="button button-small button-ghost"
            onClick={() => setRequesting('custom')}
            aria-label={`Request a custom amount for ${service.name}`}
          >
            Request a custom amount
          </button>
        )}
      </p>
      <FormError message={failure ? errorText(failure) : ''} />
      {list === null ? (
        <p role="status">Loading…</p>
      ) : list.length === 0 && editing === null ? (
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
              {confirming === product.id ? (
                <InlineConfirm
                  label={`Delete ${product.name}?`}
                  question="Delete it?"
                  action="Delete"
                  onConfirm={() => remove(product)}
                  onCancel={() => setConfirming(null)}
                />
              ) : (
                <span className="file-actions">
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => setEditing(product)}
                    aria-label={`Edit ${product.name}`}
                  >
                    Edit
                  </button>
                  {product.active ? (
                    <button
                      type="button"
                      className="button button-small button-ghost"
                      onClick={() => setRequesting(product)}
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
                    onClick={() => setConfirming(product.id)}
                    aria-label={`Delete ${product.name}`}
                  >
                    Delete
                  </button>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {requesting ? (
        <RequestForm service={service} product={requesting === 'custom' ? undefined : requesting} onDone={() => setRequesting(null)} />
      ) : null}
      {editing !== null ? (
        <ProductForm service={service} existing={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />
      ) : (
        <button type="button" className="button button-small" onClick={() => setEditing('new')}>
          Add product
        </button>
      )}
    </article>
  );
}
