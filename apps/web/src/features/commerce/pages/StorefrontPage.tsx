import {
  formatUsd,
  linkBuilder,
  type ProductView,
  type ShippingOption,
  type ShippingService,
  type StorefrontView,
} from '@tinkerdesk/contracts/web';
import { useCallback, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { errorText } from '../../../shared/api';
import { InlinePanel, useDisclosure } from '../../../shared/disclosure';
import { EMAIL_PATTERN, FormError, useValidatedForm, type FieldErrors } from '../../../shared/forms';
import { Page } from '../../../shared/Page';
import { useInShell } from '../../../shared/shell';
import { useSession } from '../../../shared/session/session';
import { NotFoundPage } from '../../info/pages/NotFoundPage';
import { CountrySelect, RegionField } from '../components/AddressParts';
import { shippingLabel } from '../components/OrderParts';
import { ProductImage } from '../components/ProductImage';
import { isNotFound } from '../hooks/orders';
import { useOrderAndPay, useShopBySlug, useStorefront } from '../hooks/shop';

const links = linkBuilder();

/** A provider's public page (/shop/{guid}/{serviceId}): the service's products, each with an order form. */
export function StorefrontPage() {
  const { guid = '', serviceId = '' } = useParams();
  const { data: shop, error, inlineNotFound } = useStorefront(guid, serviceId);
  if (inlineNotFound || isNotFound(error)) return <StorefrontNotFound />;
  return <Storefront shop={shop} error={error} />;
}

/** A storefront address that names no shop. */
export const StorefrontNotFound = () => <NotFoundPage />;

/** A short link that names no shop. */
export const ShopLinkNotFound = () => (
  <NotFoundPage title="No shop at this address" text="Check the link you were given: the seller may have changed it." />
);

/** The same page by the short link its seller chose (/s/{slug}); an unknown one says there is no shop there. */
export function ShopPage() {
  const { slug = '' } = useParams();
  const { data: shop, error, inlineNotFound } = useShopBySlug(slug);
  if (inlineNotFound || isNotFound(error)) return <ShopLinkNotFound />;
  return <Storefront shop={shop} error={error} />;
}

/**
 * The shop's page for its data (or its loading and error states). The gateway's shell of a shop
 * (src/app/shop-shell.tsx) is this component rendered on the server with the same data.
 */
export function Storefront({ shop, error }: { shop: StorefrontView | undefined; error: unknown }) {
  if (!shop) {
    return <Page title="Shop">{error ? <FormError message={errorText(error)} /> : <p role="status">Loading…</p>}</Page>;
  }
  const guid = shop.seller.guid;
  const serviceId = shop.service.id;
  return (
    <Page
      title={shop.service.name}
      lead={
        <>
          Sold by {shop.seller.name}
          {shop.service.supportEmail ? (
            <>
              {' '}
              · Questions: <a href={`mailto:${shop.service.supportEmail}`}>{shop.service.supportEmail}</a>
            </>
          ) : null}
        </>
      }
      wide
    >
      {shop.service.provider === 'sandbox' ? (
        <p className="notice">This shop sells in test mode: no real money changes hands (pay with the test card 4242 4242 4242 4242).</p>
      ) : null}
      {shop.products.length === 0 ? (
        <p className="empty-state-text">This shop has no products yet.</p>
      ) : (
        <ul className="product-grid">
          {shop.products.map((product) => (
            <li key={product.id}>
              <ProductCard guid={guid} serviceId={serviceId} product={product} />
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}

function ProductCard({ guid, serviceId, product }: { guid: string; serviceId: string; product: ProductView }) {
  const order = useDisclosure();
  // In the gateway's shell the Order button does nothing yet: inert until the app takes the page over.
  const inShell = useInShell();
  return (
    <article className="card product-card" aria-labelledby={`product-${product.id}`}>
      <ProductImage product={product} />
      <h2 id={`product-${product.id}`}>{product.name}</h2>
      <p className="price">{formatUsd(product.price)}</p>
      {product.description ? <p className="product-description">{product.description}</p> : null}
      {order.shown ? (
        <InlinePanel disclosure={order}>
          <OrderForm guid={guid} serviceId={serviceId} product={product} onCancel={() => order.close()} />
        </InlinePanel>
      ) : (
        <div className="actions">
          <button
            type="button"
            className="button button-primary"
            {...order.opener('open')}
            aria-label={`Order ${product.name}`}
            inert={inShell || undefined}
          >
            Order
          </button>
          {product.shipping === null ? (
            <Link
              className="button button-ghost"
              to={links.newPlan(guid, serviceId, product.id)}
              aria-label={`Pay regularly for ${product.name}`}
            >
              Pay regularly
            </Link>
          ) : null}
        </div>
      )}
    </article>
  );
}

type OrderField = 'email' | 'name' | 'line1' | 'city' | 'postalCode' | 'country';

/**
 * The order form: email (checked by pattern, re-validated 200 ms after typing), note, consent to share
 * contact details, and for printed mail the shipping service, options and address. Placing the order
 * goes straight on to the payment page.
 */
function OrderForm({
  guid,
  serviceId,
  product,
  onCancel,
}: {
  guid: string;
  serviceId: string;
  product: ProductView;
  onCancel: () => void;
}) {
  const { profile } = useSession();
  const mail = product.shipping !== null;
  const prefix = `order-${product.id.slice(0, 8)}`;
  const validate = useCallback(
    (f: Record<OrderField, string>): FieldErrors<OrderField> => {
      const errors: FieldErrors<OrderField> = {};
      if (!EMAIL_PATTERN.test(f.email.trim())) errors.email = 'Please enter a valid email address.';
      if (mail) {
        if (!f.name.trim()) errors.name = 'Who is it for?';
        if (!f.line1.trim()) errors.line1 = 'Enter the street address.';
        if (!f.city.trim()) errors.city = 'Enter the city.';
        if (!/^[A-Za-z0-9][A-Za-z0-9 -]{1,18}[A-Za-z0-9]$/.test(f.postalCode.trim())) errors.postalCode = 'Enter the postal code.';
        if (!/^[A-Za-z]{2}$/.test(f.country.trim())) errors.country = 'Two letters, like US.';
      }
      return errors;
    },
    [mail],
  );
  const form = useValidatedForm<OrderField>(
    prefix,
    { email: profile?.email ?? '', name: profile?.name ?? '', line1: '', city: '', postalCode: '', country: 'US' },
    validate,
  );
  const [note, setNote] = useState('');
  const [share, setShare] = useState(false);
  const [line2, setLine2] = useState('');
  const [region, setRegion] = useState('');
  const [service, setService] = useState<ShippingService | ''>(product.shipping?.services[0] ?? '');
  const [options, setOptions] = useState<ShippingOption[]>([]);
  const order = useOrderAndPay(guid, serviceId);
  const step = order.step;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.check()) return;
    const f = form.fields;
    order.submit({
      product: product.id,
      email: f.email.trim(),
      ...(note.trim() ? { note: note.trim() } : {}),
      share,
      ...(mail && service
        ? {
            shipping: {
              service,
              options,
              address: {
                name: f.name.trim(),
                line1: f.line1.trim(),
                ...(line2.trim() ? { line2: line2.trim() } : {}),
                city: f.city.trim(),
                ...(region.trim() ? { state: region.trim() } : {}),
                postalCode: f.postalCode.trim(),
                country: f.country.trim().toUpperCase(),
              },
            },
          }
        : {}),
    });
  }

  const toggle = (option: ShippingOption) =>
    setOptions((list) => (list.includes(option) ? list.filter((o) => o !== option) : [...list, option]));

  return (
    <form className="form form-flat order-form" onSubmit={submit} noValidate aria-label={`Order ${product.name}`}>
      <label htmlFor={`${prefix}-email`}>Email (for the receipt)</label>
      <input {...form.fieldProps('email')} type="email" autoComplete="email" />
      {form.fieldError('email')}
      <label htmlFor={`${prefix}-note`}>Note to the seller (optional)</label>
      <textarea id={`${prefix}-note`} rows={2} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
      {mail && product.shipping ? (
        <fieldset className="fieldset">
          <legend>Shipping</legend>
          <label htmlFor={`${prefix}-service`}>Shipping service</label>
          <select id={`${prefix}-service`} value={service} onChange={(e) => setService(e.target.value as ShippingService)}>
            {product.shipping.services.map((s) => (
              <option key={s} value={s}>
                {shippingLabel(s)}
              </option>
            ))}
          </select>
          {product.shipping.options.length ? (
            <div className="checkbox-group" role="group" aria-label="Options">
              {product.shipping.options.map((o) => (
                <label key={o} className="checkbox">
                  <input type="checkbox" checked={options.includes(o)} onChange={() => toggle(o)} /> {shippingLabel(o)}
                </label>
              ))}
            </div>
          ) : null}
          <label htmlFor={`${prefix}-name`}>Recipient name</label>
          <input {...form.fieldProps('name')} autoComplete="name" />
          {form.fieldError('name')}
          <label htmlFor={`${prefix}-line1`}>Street address</label>
          <input {...form.fieldProps('line1')} autoComplete="address-line1" />
          {form.fieldError('line1')}
          <label htmlFor={`${prefix}-line2`}>Apartment, suite (optional)</label>
          <input id={`${prefix}-line2`} value={line2} autoComplete="address-line2" onChange={(e) => setLine2(e.target.value)} />
          <label htmlFor={`${prefix}-city`}>City</label>
          <input {...form.fieldProps('city')} autoComplete="address-level2" />
          {form.fieldError('city')}
          <label htmlFor={`${prefix}-country`}>Country</label>
          <CountrySelect
            id={`${prefix}-country`}
            value={form.fields.country}
            onChange={(code) => (form.change('country', code), setRegion(''))}
          />
          {form.fieldError('country')}
          <label htmlFor={`${prefix}-region`}>
            {form.fields.country === 'US' || form.fields.country === 'CA' ? 'State or province' : 'State or province (optional)'}
          </label>
          <RegionField id={`${prefix}-region`} country={form.fields.country} value={region} onChange={setRegion} />
          <label htmlFor={`${prefix}-postalCode`}>Postal code</label>
          <input {...form.fieldProps('postalCode')} autoComplete="postal-code" />
          {form.fieldError('postalCode')}
        </fieldset>
      ) : null}
      <label className="checkbox">
        <input type="checkbox" checked={share} onChange={(e) => setShare(e.target.checked)} /> Share my contact details with the seller
      </label>
      <FormError message={order.error ? errorText(order.error) : ''} />
      <div className="actions">
        <button className="button button-primary" type="submit" disabled={step !== 'idle'}>
          {step === 'ordering'
            ? 'Placing your order…'
            : step === 'paying'
              ? 'Opening the payment page…'
              : `Order and pay ${formatUsd(product.price)}`}
        </button>
        <button className="button button-ghost" type="button" onClick={onCancel} disabled={step !== 'idle'}>
          Cancel
        </button>
      </div>
    </form>
  );
}
