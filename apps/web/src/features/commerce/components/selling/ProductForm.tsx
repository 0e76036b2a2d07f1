import {
  SHIPPING_OPTIONS,
  SHIPPING_SERVICES,
  type ProductView,
  type ServiceView,
  type ShippingOption,
  type ShippingService,
} from '@tinkerdesk/contracts/web';
import { useState, type FormEvent } from 'react';
import { errorText } from '../../../../shared/api';
import { FormError } from '../../../../shared/forms';
import { useSession } from '../../../../shared/session/session';
import { useSaveProduct } from '../../hooks/selling';
import { useProductImageField } from '../../hooks/useProductImageField';
import { centsToDollars, dollarsToCents } from '../../money';
import { shippingLabel } from '../OrderParts';
import { ProductImageField } from './ProductImageField';

const flip = <T,>(list: T[], value: T): T[] => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);

/** Adds or edits a product of a service; saving reloads the service's products. */
export function ProductForm({ service, existing, onDone }: { service: ServiceView; existing?: ProductView; onDone: () => void }) {
  const { token, profile } = useSession();
  const mail = service.vendor === 'mail';
  const [name, setName] = useState(existing?.name ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [price, setPrice] = useState(existing ? centsToDollars(existing.price) : '');
  const [active, setActive] = useState(existing?.active ?? true);
  const [services, setServices] = useState<ShippingService[]>(existing?.shipping?.services ?? ['USPS_FIRST_CLASS']);
  const [options, setOptions] = useState<ShippingOption[]>(existing?.shipping?.options ?? []);
  const [refusal, setRefusal] = useState('');
  const save = useSaveProduct(profile?.guid ?? '', service.id);
  const image = useProductImageField(profile?.guid ?? '', service.id, existing);
  // A new product saved whose image upload then failed: saving again edits it, not a second one.
  const [savedId, setSavedId] = useState(existing?.id);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!token || !profile) return;
    const refuse = (message: string) => (save.reset(), setRefusal(message));
    if (!name.trim()) return refuse('Give the product a name.');
    const parsed = dollarsToCents(price);
    if ('error' in parsed) return refuse(parsed.error);
    if (mail && services.length === 0) return refuse('Choose at least one shipping service.');
    setRefusal('');
    const imageBody = image.imageBody();
    save.mutate(
      {
        body: {
          name: name.trim(),
          description: description.trim(),
          price: parsed.cents,
          ...(imageBody !== undefined ? { image: imageBody } : {}),
          active,
          ...(mail ? { shipping: { services, options } } : {}),
        },
        productId: savedId,
      },
      {
        onSuccess: async ({ product }) => {
          setSavedId(product.id);
          if (await image.finish(product.id)) onDone();
        },
      },
    );
  }

  const error = refusal || (save.error ? errorText(save.error) : '');
  const id = existing?.id.slice(0, 8) ?? 'new';
  return (
    <form className="form form-flat product-form" onSubmit={submit} aria-label={existing ? `Edit ${existing.name}` : 'New product'}>
      <label htmlFor={`product-${id}-name`}>Product name</label>
      <input id={`product-${id}-name`} value={name} maxLength={120} onChange={(e) => setName(e.target.value)} />
      <label htmlFor={`product-${id}-price`}>Price (US dollars)</label>
      <input id={`product-${id}-price`} inputMode="decimal" placeholder="12.50" value={price} onChange={(e) => setPrice(e.target.value)} />
      <label htmlFor={`product-${id}-description`}>Description (optional)</label>
      <textarea
        id={`product-${id}-description`}
        rows={3}
        maxLength={2000}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      <ProductImageField id={id} field={image} />
      {mail ? (
        <fieldset className="fieldset">
          <legend>Shipping services buyers may choose</legend>
          <div className="checkbox-group">
            {SHIPPING_SERVICES.map((s) => (
              <label key={s} className="checkbox">
                <input type="checkbox" checked={services.includes(s)} onChange={() => setServices((l) => flip(l, s))} /> {shippingLabel(s)}
              </label>
            ))}
          </div>
          <p className="muted">Options buyers may add:</p>
          <div className="checkbox-group">
            {SHIPPING_OPTIONS.map((o) => (
              <label key={o} className="checkbox">
                <input type="checkbox" checked={options.includes(o)} onChange={() => setOptions((l) => flip(l, o))} /> {shippingLabel(o)}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <label className="checkbox">
        <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} /> For sale (active)
      </label>
      <FormError message={error} />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={save.isPending || image.busy}>
          {save.isPending || image.busy ? 'Saving…' : existing ? 'Save product' : 'Add product'}
        </button>
        <button type="button" className="button button-ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
