import {
  SHIPPING_OPTIONS,
  SHIPPING_SERVICES,
  type ProductView,
  type ServiceView,
  type ShippingOption,
  type ShippingService,
} from '@tinkerdesk/contracts/web';
import { useEffect, useState, type FormEvent } from 'react';
import { errorText } from '../../../../shared/api';
import { FieldError, focusField, FormError, refusalWords, refusedField, VALIDATION_DELAY_MS } from '../../../../shared/forms';
import { useSession } from '../../../../shared/session/session';
import { useSaveProduct } from '../../hooks/selling';
import { useProductImageField } from '../../hooks/useProductImageField';
import { centsToDollars, dollarsToCents } from '../../money';
import { shippingLabel } from '../OrderParts';
import { ProductImageField } from './ProductImageField';

type Field = 'name' | 'price' | 'description' | 'shipping';
const FIELDS: Field[] = ['name', 'price', 'description', 'shipping'];
/** Each field's short name, said first in its errors ("Price: …"). */
const NAMES: Record<Field, string> = { name: 'Product name', price: 'Price', description: 'Description', shipping: 'Shipping services' };

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
  // What is wrong before anything is sent, on its field.
  const [refusal, setRefusal] = useState<{ field: Field; text: string } | null>(null);
  const save = useSaveProduct(profile?.guid ?? '', service.id);
  const image = useProductImageField(profile?.guid ?? '', service.id, existing);
  // A new product saved whose image upload then failed: saving again edits it, not a second one.
  const [savedId, setSavedId] = useState(existing?.id);
  const id = existing?.id.slice(0, 8) ?? 'new';
  const prefix = `product-${id}`;

  /** What is wrong with the fields as typed (the first field's problem), else null. */
  function problem(): { field: Field; text: string } | null {
    if (!name.trim()) return { field: 'name', text: 'Give the product a name.' };
    const parsed = dollarsToCents(price);
    if ('error' in parsed) return { field: 'price', text: parsed.error };
    if (mail && services.length === 0) return { field: 'shipping', text: 'Choose at least one shipping service.' };
    return null;
  }
  // Once a problem is shown, the fields are checked again 200 ms after typing stops (shared/forms.tsx).
  const shownProblem = refusal !== null;
  useEffect(() => {
    if (!shownProblem) return;
    const timer = setTimeout(() => setRefusal(problem()), VALIDATION_DELAY_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- problem() reads exactly these fields
  }, [name, price, services, shownProblem]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!token || !profile) return;
    const found = problem();
    const parsed = dollarsToCents(price);
    if (found || 'error' in parsed) return (save.reset(), setRefusal(found), focusField(prefix, found?.field));
    setRefusal(null);
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
        onError: (error) => focusField(prefix, refusedField(error, FIELDS)),
      },
    );
  }

  const serverField = refusedField(save.error, FIELDS);
  const errorOf = (field: Field): string | undefined =>
    refusal?.field === field ? refusal.text : serverField === field ? refusalWords(save.error) : undefined;
  const described = (field: Field) => ({
    id: `${prefix}-${field}`,
    'aria-invalid': errorOf(field) ? true : undefined,
    'aria-describedby': errorOf(field) ? `${prefix}-${field}-error` : undefined,
  });
  const fieldError = (field: Field) => <FieldError id={`${prefix}-${field}-error`} name={NAMES[field]} message={errorOf(field)} />;
  const error = save.error && !serverField ? errorText(save.error) : '';
  return (
    <form
      className="form form-flat product-form"
      onSubmit={submit}
      aria-label={existing ? `Edit ${existing.name}` : 'New product'}
      noValidate
    >
      <FormError message={error} />
      <label htmlFor={`${prefix}-name`}>Product name</label>
      <input value={name} maxLength={120} required {...described('name')} onChange={(e) => setName(e.target.value)} />
      {fieldError('name')}
      <label htmlFor={`${prefix}-price`}>Price (US dollars)</label>
      <input
        inputMode="decimal"
        placeholder="12.50"
        value={price}
        required
        {...described('price')}
        onChange={(e) => setPrice(e.target.value)}
      />
      {fieldError('price')}
      <label htmlFor={`${prefix}-description`}>Description (optional)</label>
      <textarea
        rows={3}
        maxLength={2000}
        value={description}
        {...described('description')}
        onChange={(e) => setDescription(e.target.value)}
      />
      {fieldError('description')}
      <ProductImageField id={id} field={image} />
      {mail ? (
        <fieldset className="fieldset">
          <legend>Shipping services buyers may choose</legend>
          <div
            className="checkbox-group"
            id={`${prefix}-shipping`}
            tabIndex={-1}
            role="group"
            aria-label="Shipping services"
            aria-describedby={errorOf('shipping') ? `${prefix}-shipping-error` : undefined}
          >
            {SHIPPING_SERVICES.map((s) => (
              <label key={s} className="checkbox">
                <input type="checkbox" checked={services.includes(s)} onChange={() => setServices((l) => flip(l, s))} /> {shippingLabel(s)}
              </label>
            ))}
          </div>
          {fieldError('shipping')}
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
