import {
  formatLongDate,
  formatUsd,
  linkBuilder,
  ORDER_STATES,
  SHIPPING_OPTIONS,
  SHIPPING_SERVICES,
  type OrderList,
  type OrderState,
  type PaymentProviderId,
  type ProductView,
  type ServiceView,
  type ShippingOption,
  type ShippingService,
  type Vendor,
} from '@tinkerdesk/contracts/web';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { errorText } from '../../../shared/api';
import { EMAIL_PATTERN, FormError } from '../../../shared/forms';
import { InlineConfirm } from '../../../shared/InlineConfirm';
import { Pager } from '../../../shared/Pager';
import { session as sessionStore, useSession } from '../../../shared/session/session';
import { deleteProduct, incomingOrders, listProducts, myOrders, saveProduct, saveService, sendRequest, validateAccount } from '../api';
import { centsToDollars, dollarsToCents } from '../money';
import { CountrySelect, RegionField } from './AddressParts';
import { OrderStateBadge, shippingLabel } from './OrderParts';

const links = linkBuilder();
const PAGE = 10;

/** A sandbox account name from the user's name or guid: sandbox_<letters>. */
function suggestedSandboxAccount(name: string | undefined, guid: string): string {
  const slug = (name ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 32);
  return `sandbox_${slug || guid.slice(0, 8)}`;
}

/** /account#selling: services (create, edit, check the account), their products, incoming orders, my orders. */
export function SellingSection() {
  const { profile } = useSession();
  const services = (profile?.services ?? []) as ServiceView[];
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
      ) : services.length === 0 ? (
        <p className="empty-state-text">
          Sell from a public page: create a service (the built-in sandbox processor takes test payments with nothing to set up, or connect a
          Stripe account), add products, and share its link.
        </p>
      ) : null}
      {services.map((service) => (
        <ServiceBlock key={service.id} service={service} onEdit={() => setEditing(service)} />
      ))}
      <IncomingOrders />
      <BuyerOrders />
    </section>
  );
}

function ServiceForm({ existing, onDone }: { existing?: ServiceView; onDone: () => void }) {
  const { token, profile } = useSession();
  const guid = profile?.guid ?? '';
  const origin = (existing?.shippingOrigin ?? {}) as Record<string, string>;
  const [name, setName] = useState(existing?.name ?? '');
  const [provider, setProvider] = useState<PaymentProviderId>((existing?.provider as PaymentProviderId) ?? 'sandbox');
  const [vendor, setVendor] = useState<Vendor>((existing?.vendor as Vendor) ?? 'digital');
  const [account, setAccount] = useState(existing?.account ?? suggestedSandboxAccount(profile?.name, guid));
  const [descriptor, setDescriptor] = useState(String(existing?.statementDescriptor ?? ''));
  const [support, setSupport] = useState(String(existing?.supportEmail ?? ''));
  const [address, setAddress] = useState({
    name: origin.name ?? '',
    line1: origin.line1 ?? '',
    line2: origin.line2 ?? '',
    city: origin.city ?? '',
    state: origin.state ?? '',
    postalCode: origin.postalCode ?? '',
    country: origin.country ?? 'US',
  });
  const [check, setCheck] = useState<{ valid: boolean; reason: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function validate() {
    if (!token) return;
    setCheck(null);
    setError('');
    try {
      const { valid, reason } = await validateAccount(guid, { provider, account: account.trim() });
      setCheck({ valid, reason });
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!token) return;
    if (!name.trim()) return setError('Give the service a name.');
    setBusy(true);
    setError('');
    try {
      await saveService(
        guid,
        {
          name: name.trim(),
          provider,
          vendor,
          account: account.trim(),
          ...(provider === 'stripe' && descriptor.trim() ? { statementDescriptor: descriptor.trim() } : {}),
          ...(support.trim() ? { supportEmail: support.trim() } : {}),
          ...(vendor === 'mail'
            ? {
                shippingOrigin: {
                  name: address.name.trim(),
                  line1: address.line1.trim(),
                  ...(address.line2.trim() ? { line2: address.line2.trim() } : {}),
                  city: address.city.trim(),
                  ...(address.state.trim() ? { state: address.state.trim() } : {}),
                  postalCode: address.postalCode.trim(),
                  country: address.country.trim().toUpperCase(),
                },
              }
            : {}),
        },
        existing?.id,
      );
      await sessionStore.refresh();
      sessionStore.notify({
        tag: 'service',
        type: 'success',
        content: existing ? 'The service is saved.' : 'Your service is ready: add products to it.',
        timeout: 5000,
      });
      onDone();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  const field = (key: keyof typeof address, label: string, autoComplete: string) => (
    <>
      <label htmlFor={`origin-${key}`}>{label}</label>
      <input
        id={`origin-${key}`}
        value={address[key]}
        autoComplete={autoComplete}
        onChange={(e) => setAddress((a) => ({ ...a, [key]: e.target.value }))}
      />
    </>
  );

  return (
    <form className="form form-flat service-form" onSubmit={submit} aria-label={existing ? `Edit ${existing.name}` : 'New service'}>
      <label htmlFor="service-name">Service name</label>
      <input id="service-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      <label htmlFor="service-provider">Payment provider</label>
      <select
        id="service-provider"
        value={provider}
        onChange={(e) => {
          const next = e.target.value as PaymentProviderId;
          setProvider(next);
          setCheck(null);
          if (next === 'sandbox' && !account.startsWith('sandbox_')) setAccount(suggestedSandboxAccount(profile?.name, guid));
          if (next === 'stripe' && account.startsWith('sandbox_')) setAccount('');
        }}
      >
        <option value="sandbox">Sandbox (test payments, nothing to set up)</option>
        <option value="stripe">Stripe (your connected account)</option>
      </select>
      <label htmlFor="service-account">{provider === 'stripe' ? 'Stripe account id (acct_…)' : 'Sandbox account (sandbox_…)'}</label>
      <span className="field-row">
        <input id="service-account" value={account} maxLength={64} onChange={(e) => (setAccount(e.target.value), setCheck(null))} />
        <button type="button" className="button button-small" onClick={() => void validate()}>
          Check account
        </button>
      </span>
      {check ? (
        <p className={`notice ${check.valid ? 'notice-success' : 'notice-error'}`} role="status">
          {check.valid ? 'The account can take payments: ' : 'The account cannot take payments: '}
          {check.reason}
        </p>
      ) : null}
      <label htmlFor="service-vendor">What you sell</label>
      <select id="service-vendor" value={vendor} onChange={(e) => setVendor(e.target.value as Vendor)}>
        <option value="digital">Digital goods</option>
        <option value="service">A service</option>
        <option value="mail">Printed mail</option>
      </select>
      {provider === 'stripe' ? (
        <>
          <label htmlFor="service-descriptor">Card statement text (optional, 5–22 characters)</label>
          <input id="service-descriptor" value={descriptor} maxLength={22} onChange={(e) => setDescriptor(e.target.value)} />
        </>
      ) : null}
      <label htmlFor="service-support">Support email (shown on receipts, optional)</label>
      <input id="service-support" type="email" value={support} onChange={(e) => setSupport(e.target.value)} />
      {vendor === 'mail' ? (
        <fieldset className="fieldset">
          <legend>Shipping from</legend>
          {field('name', 'Name', 'organization')}
          {field('line1', 'Street address', 'address-line1')}
          {field('line2', 'Apartment, suite (optional)', 'address-line2')}
          {field('city', 'City', 'address-level2')}
          <label htmlFor="origin-country">Country</label>
          <CountrySelect
            id="origin-country"
            value={address.country}
            onChange={(country) => setAddress((a) => ({ ...a, country, state: '' }))}
          />
          <label htmlFor="origin-state">State or province</label>
          <RegionField
            id="origin-state"
            country={address.country}
            value={address.state}
            onChange={(state) => setAddress((a) => ({ ...a, state }))}
          />
          {field('postalCode', 'Postal code', 'postal-code')}
        </fieldset>
      ) : null}
      <FormError message={error} />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : existing ? 'Save service' : 'Create service'}
        </button>
        <button type="button" className="button button-ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function CopyLink({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button button-small button-ghost"
      onClick={() =>
        void navigator.clipboard.writeText(url).then(
          () => (setCopied(true), setTimeout(() => setCopied(false), 2000)),
          () => setCopied(false),
        )
      }
    >
      {copied ? 'Copied' : 'Copy link'}
    </button>
  );
}

function ServiceBlock({ service, onEdit }: { service: ServiceView; onEdit: () => void }) {
  const { token, profile } = useSession();
  const guid = profile?.guid ?? '';
  const [products, setProducts] = useState<ProductView[] | null>(null);
  const [editing, setEditing] = useState<ProductView | 'new' | null>(null);
  const [error, setError] = useState('');
  const [confirming, setConfirming] = useState<string | null>(null);
  const [requesting, setRequesting] = useState<ProductView | null>(null);
  const page = linkBuilder(window.location.origin).storefront(guid, service.id);

  const load = useCallback(
    (): Promise<void> =>
      listProducts(guid, service.id).then(
        (answer) => setProducts(answer.products),
        (failure: unknown) => setError(errorText(failure)),
      ),
    [guid, service.id],
  );
  useEffect(() => {
    void load();
  }, [load, token]);

  async function remove(product: ProductView) {
    if (!token) return;
    try {
      const { deleted } = await deleteProduct(guid, service.id, product.id);
      sessionStore.notify({
        tag: 'product',
        type: 'success',
        content: deleted ? `${product.name} is deleted.` : `${product.name} has orders, so it is deactivated instead of deleted.`,
        timeout: 6000,
      });
      setConfirming(null);
      await load();
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  async function toggle(product: ProductView) {
    if (!token) return;
    try {
      await saveProduct(guid, service.id, { active: !product.active }, product.id);
      await load();
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  return (
    <article className="service-block" aria-labelledby={`service-${service.id}`}>
      <div className="section-head">
        <h3 id={`service-${service.id}`}>{service.name}</h3>
        <span className="muted">
          {service.provider === 'sandbox' ? 'Sandbox' : 'Stripe'} · {service.vendor}
        </span>
      </div>
      <p className="service-links">
        <Link to={linkBuilder().storefront(guid, service.id)}>Public page</Link> <CopyLink url={page} />{' '}
        <button type="button" className="button button-small button-ghost" onClick={onEdit}>
          Edit service
        </button>
      </p>
      <FormError message={error} />
      {products === null ? (
        <p role="status">Loading…</p>
      ) : products.length === 0 && editing === null ? (
        <p className="empty-state-text">No products yet: add one so buyers can order it from the public page.</p>
      ) : (
        <ul className="file-list">
          {products.map((product) => (
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
                  onConfirm={() => void remove(product)}
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
                  <button type="button" className="button button-small button-ghost" onClick={() => void toggle(product)}>
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
      {requesting ? <RequestForm service={service} product={requesting} onDone={() => setRequesting(null)} /> : null}
      {editing !== null ? (
        <ProductForm
          service={service}
          existing={editing === 'new' ? undefined : editing}
          onDone={() => {
            setEditing(null);
            void load();
          }}
        />
      ) : (
        <button type="button" className="button button-small" onClick={() => setEditing('new')}>
          Add product
        </button>
      )}
    </article>
  );
}

/** Ask a person by email to pay for a product: they get a link to accept and pay, or decline. */
function RequestForm({ service, product, onDone }: { service: ServiceView; product: ProductView; onDone: () => void }) {
  const { token } = useSession();
  const [email, setEmail] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!token) return;
    if (!EMAIL_PATTERN.test(email.trim())) return setError('Please enter a valid email address.');
    setBusy(true);
    setError('');
    try {
      await sendRequest({
        email: email.trim(),
        service: service.id,
        product: product.id,
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      sessionStore.notify({
        tag: 'request',
        type: 'success',
        content: `Request sent to ${email.trim()}. Follow it in Billing.`,
        timeout: 6000,
      });
      onDone();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="form form-flat product-form" onSubmit={submit} noValidate aria-label={`Request payment for ${product.name}`}>
      <p className="muted">
        Ask someone to pay {formatUsd(product.price)} for {product.name}: they get an email with a link to accept and pay, or decline.
      </p>
      <label htmlFor="request-email">Their email</label>
      <input id="request-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <label htmlFor="request-note">Note (optional)</label>
      <textarea id="request-note" rows={2} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
      <FormError message={error} />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Sending…' : 'Send request'}
        </button>
        <button type="button" className="button button-ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function ProductForm({ service, existing, onDone }: { service: ServiceView; existing?: ProductView; onDone: () => void }) {
  const { token, profile } = useSession();
  const mail = service.vendor === 'mail';
  const [name, setName] = useState(existing?.name ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [price, setPrice] = useState(existing ? centsToDollars(existing.price) : '');
  const [image, setImage] = useState(existing?.image ?? '');
  const [active, setActive] = useState(existing?.active ?? true);
  const [services, setServices] = useState<ShippingService[]>(existing?.shipping?.services ?? ['USPS_FIRST_CLASS']);
  const [options, setOptions] = useState<ShippingOption[]>(existing?.shipping?.options ?? []);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!token || !profile) return;
    if (!name.trim()) return setError('Give the product a name.');
    const parsed = dollarsToCents(price);
    if ('error' in parsed) return setError(parsed.error);
    if (mail && services.length === 0) return setError('Choose at least one shipping service.');
    setBusy(true);
    setError('');
    try {
      await saveProduct(
        profile.guid,
        service.id,
        {
          name: name.trim(),
          description: description.trim(),
          price: parsed.cents,
          image: image.trim() ? image.trim() : null,
          active,
          ...(mail ? { shipping: { services, options } } : {}),
        },
        existing?.id,
      );
      onDone();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  const flip = <T,>(list: T[], value: T): T[] => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
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
      <label htmlFor={`product-${id}-image`}>Image URL (https, optional)</label>
      <input id={`product-${id}-image`} type="url" value={image} onChange={(e) => setImage(e.target.value)} />
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
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : existing ? 'Save product' : 'Add product'}
        </button>
        <button type="button" className="button button-ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function OrdersList({
  title,
  empty,
  load,
  link,
  withFilter,
}: {
  title: string;
  empty: string;
  load: (offset: number, state: OrderState | undefined) => Promise<OrderList>;
  link: (id: string) => string;
  withFilter?: boolean;
}) {
  const { profile } = useSession();
  const [list, setList] = useState<OrderList | null>(null);
  const [offset, setOffset] = useState(0);
  const [state, setState] = useState<OrderState | ''>('');
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    load(offset, state || undefined).then(
      (answer) => live && (setList(answer), setError('')),
      (failure: unknown) => live && setError(errorText(failure)),
    );
    return () => {
      live = false;
    };
  }, [load, offset, state]);
  const headingId = title.toLowerCase().replace(/\W+/g, '-');
  return (
    <div className="orders-list" aria-labelledby={headingId}>
      <div className="section-head">
        <h3 id={headingId}>{title}</h3>
        {withFilter ? (
          <label className="inline-label">
            <span className="visually-hidden">Show</span>
            <select
              value={state}
              onChange={(e) => (setOffset(0), setState(e.target.value as OrderState | ''))}
              aria-label={`${title}: state`}
            >
              <option value="">All states</option>
              {ORDER_STATES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      <FormError message={error} />
      {list === null ? (
        error ? null : (
          <p role="status">Loading…</p>
        )
      ) : list.orders.length === 0 ? (
        <p className="empty-state-text">{empty}</p>
      ) : (
        <>
          <ul className="file-list">
            {list.orders.map((order) => (
              <li key={order.id} className="file-row">
                <span className="file-name">
                  <Link to={link(order.id)}>
                    <strong>{order.items[0]?.name ?? 'Order'}</strong>
                  </Link>
                  <small>
                    {formatUsd(order.amount)} · {order.email ?? 'contact not shared'} · {formatLongDate(order.created, profile?.tz)}
                  </small>
                </span>
                <OrderStateBadge state={order.state} />
              </li>
            ))}
          </ul>
          <Pager offset={offset} total={list.total} pageSize={PAGE} onMove={setOffset} label={title} />
        </>
      )}
    </div>
  );
}

function IncomingOrders() {
  const load = useCallback((offset: number, state: OrderState | undefined) => incomingOrders(offset, PAGE, state), []);
  return (
    <OrdersList
      title="Incoming orders"
      empty="No orders yet. Share your public page: orders appear here when buyers place them."
      load={load}
      link={links.sellerOrder}
      withFilter
    />
  );
}

function BuyerOrders() {
  const load = useCallback((offset: number) => myOrders(offset, PAGE), []);
  return <OrdersList title="My orders" empty="You have not ordered anything while signed in." load={load} link={links.order} />;
}
