import { SELLER_NAME_MAX, type PaymentProviderId, type ServiceView, type Vendor } from '@tinkerdesk/contracts/web';
import { FieldError, FormError } from '../../../../shared/forms';
import { SERVICE_FIELD_IDS, useServiceForm, type OriginAddress } from '../../hooks/useServiceForm';
import { CountrySelect, RegionField } from '../AddressParts';

/** Creates or edits a service: name, payment provider and account (with a check), what it sells, where mail ships from. */
export function ServiceForm({ existing, onDone }: { existing?: ServiceView; onDone: () => void }) {
  const { fields, set, check, error, fieldErrors, slugError, displayNameError, slugSuggestion, busy, stripeUnavailable, validate, submit } =
    useServiceForm(existing, onDone);
  const { address, provider, vendor } = fields;
  /** A field's error under it, named by it; the input points at it. */
  const refused = (key: keyof typeof SERVICE_FIELD_IDS, name: string) => ({
    props: {
      'aria-invalid': fieldErrors[key] ? true : undefined,
      'aria-describedby': fieldErrors[key] ? `${SERVICE_FIELD_IDS[key]}-error` : undefined,
    },
    error: <FieldError id={`${SERVICE_FIELD_IDS[key]}-error`} name={name} message={fieldErrors[key]} />,
  });
  const nameField = refused('name', 'Service name');
  const account = refused('account', 'Account');
  const descriptor = refused('statementDescriptor', 'Card statement text');
  const support = refused('supportEmail', 'Support email');

  const field = (key: keyof OriginAddress, label: string, autoComplete: string) => (
    <>
      <label htmlFor={`origin-${key}`}>{label}</label>
      <input
        id={`origin-${key}`}
        value={address[key]}
        autoComplete={autoComplete}
        onChange={(e) => set.address((a) => ({ ...a, [key]: e.target.value }))}
      />
    </>
  );

  return (
    <form className="form form-flat service-form" onSubmit={submit} aria-label={existing ? `Edit ${existing.name}` : 'New service'}>
      <FormError message={error} />
      <label htmlFor="service-name">Service name</label>
      <input id="service-name" value={fields.name} maxLength={100} {...nameField.props} onChange={(e) => set.name(e.target.value)} />
      {nameField.error}
      <label htmlFor="service-display-name">Seller name buyers see</label>
      <input
        id="service-display-name"
        value={fields.displayName}
        maxLength={SELLER_NAME_MAX}
        autoComplete="organization"
        aria-required="true"
        aria-describedby={displayNameError ? 'service-display-name-hint service-display-name-error' : 'service-display-name-hint'}
        aria-invalid={displayNameError ? true : undefined}
        onChange={(e) => set.displayName(e.target.value)}
      />
      <small id="service-display-name-hint" className="muted">
        Your name or your shop’s: on your shop page, receipts, emails and payment requests.
      </small>
      {displayNameError ? (
        <span className="field-error" id="service-display-name-error" role="alert">
          {displayNameError}
        </span>
      ) : null}
      <label htmlFor="service-slug">Shop link (optional)</label>
      <span className="field-row slug-row">
        <span className="muted slug-prefix" aria-hidden="true">
          {window.location.host}/s/
        </span>
        <input
          id="service-slug"
          value={fields.slug}
          maxLength={40}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          placeholder={slugSuggestion}
          aria-describedby={slugError ? 'service-slug-hint service-slug-error' : 'service-slug-hint'}
          aria-invalid={slugError ? true : undefined}
          onChange={(e) => set.slug(e.target.value)}
        />
      </span>
      <small id="service-slug-hint" className="muted">
        Lowercase letters, digits and hyphens, 3–40 characters. Changing it frees the old link: it stops working.
      </small>
      {slugError ? (
        <span className="field-error" id="service-slug-error" role="alert">
          {slugError}
        </span>
      ) : null}
      <label htmlFor="service-provider">Payment provider</label>
      <select
        id="service-provider"
        value={provider}
        onChange={(e) => set.provider(e.target.value as PaymentProviderId)}
        aria-describedby={stripeUnavailable ? 'service-provider-note' : undefined}
      >
        <option value="sandbox">Sandbox (test payments, nothing to set up)</option>
        <option value="stripe" disabled={stripeUnavailable}>
          {stripeUnavailable ? 'Stripe (not available on this site yet)' : 'Stripe (your connected account)'}
        </option>
      </select>
      {stripeUnavailable ? (
        <p className="hint" id="service-provider-note">
          Card payments through Stripe are not available on this site yet. The sandbox takes test payments with nothing to set up.
        </p>
      ) : null}
      <label htmlFor="service-account">{provider === 'stripe' ? 'Stripe account id (acct_…)' : 'Sandbox account (sandbox_…)'}</label>
      <span className="field-row">
        <input
          id="service-account"
          value={fields.account}
          maxLength={64}
          {...account.props}
          onChange={(e) => set.account(e.target.value)}
        />
        <button type="button" className="button button-small" onClick={validate}>
          Check account
        </button>
      </span>
      {account.error}
      {check ? (
        <p className={`notice ${check.valid ? 'notice-success' : 'notice-error'}`} role="status">
          {check.valid ? 'The account can take payments: ' : 'The account cannot take payments: '}
          {check.reason}
        </p>
      ) : null}
      <label htmlFor="service-vendor">What you sell</label>
      <select id="service-vendor" value={vendor} onChange={(e) => set.vendor(e.target.value as Vendor)}>
        <option value="digital">Digital goods</option>
        <option value="service">A service</option>
        <option value="mail">Printed mail</option>
      </select>
      {provider === 'stripe' ? (
        <>
          <label htmlFor="service-descriptor">Card statement text (optional, 5–22 characters)</label>
          <input
            id="service-descriptor"
            value={fields.descriptor}
            maxLength={22}
            {...descriptor.props}
            onChange={(e) => set.descriptor(e.target.value)}
          />
          {descriptor.error}
        </>
      ) : null}
      <label htmlFor="service-support">Support email (shown on receipts, optional)</label>
      <input id="service-support" type="email" value={fields.support} {...support.props} onChange={(e) => set.support(e.target.value)} />
      {support.error}
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
            onChange={(country) => set.address((a) => ({ ...a, country, state: '' }))}
          />
          <label htmlFor="origin-state">State or province</label>
          <RegionField
            id="origin-state"
            country={address.country}
            value={address.state}
            onChange={(state) => set.address((a) => ({ ...a, state }))}
          />
          {field('postalCode', 'Postal code', 'postal-code')}
        </fieldset>
      ) : null}
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
