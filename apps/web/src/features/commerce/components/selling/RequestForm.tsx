import { formatUsd, type ProductView, type ServiceView } from '@tinkerdesk/contracts/web';
import { useState, type FormEvent } from 'react';
import { ApiError, errorText } from '../../../../shared/api';
import { EMAIL_PATTERN, FormError } from '../../../../shared/forms';
import { session, useSession } from '../../../../shared/session/session';
import { useSendRequest } from '../../hooks/selling';
import { dollarsToCents } from '../../money';

/** As long as a product's name: the description names the order and the receipt (REQUEST_DESCRIPTION_MAX). */
const DESCRIPTION_MAX = 120;
type Field = 'email' | 'amount' | 'description' | 'note';
const FIELDS: Field[] = ['email', 'amount', 'description', 'note'];

/** The field a server refusal is about (its detail starts with the field's name), else none. */
function fieldOf(error: unknown): Field | null {
  if (!(error instanceof ApiError) || !error.detail) return null;
  return FIELDS.find((f) => error.detail!.startsWith(`${f} `) || error.detail!.startsWith(`${f}:`)) ?? null;
}

/** The server's detail in words for the form (its message after the field name). */
const detailOf = (error: ApiError) => {
  const text = (error.detail ?? '').replace(/^(\w+):\s*/, '');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
};

/**
 * Ask a person by email to pay: for a product (`product`), or a custom amount with a description
 * (no product). They get a link to accept and pay, or decline. Errors show on the field they concern.
 */
export function RequestForm({ service, product, onDone }: { service: ServiceView; product?: ProductView; onDone: () => void }) {
  const { token } = useSession();
  const [values, setValues] = useState<Record<Field, string>>({ email: '', amount: '', description: '', note: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const send = useSendRequest();
  const custom = !product;
  const prefix = custom ? `request-${service.id.slice(0, 8)}` : 'request';

  const change = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  function check(): Partial<Record<Field, string>> {
    const found: Partial<Record<Field, string>> = {};
    if (!EMAIL_PATTERN.test(values.email.trim())) found.email = 'Please enter a valid email address.';
    if (custom) {
      const parsed = dollarsToCents(values.amount, 'amount');
      if ('error' in parsed) found.amount = parsed.error;
      const description = values.description.trim();
      if (!description) found.description = 'Say what the payment is for.';
      else if (description.length > DESCRIPTION_MAX) found.description = `Keep it to ${DESCRIPTION_MAX} characters.`;
    }
    return found;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!token) return;
    const found = check();
    setErrors(found);
    const first = FIELDS.find((f) => found[f]);
    if (first) return (send.reset(), document.getElementById(`${prefix}-${first}`)?.focus());
    const to = values.email.trim();
    const note = values.note.trim();
    const what = product
      ? { product: product.id }
      : { amount: (dollarsToCents(values.amount, 'amount') as { cents: number }).cents, description: values.description.trim() };
    send.mutate(
      { email: to, service: service.id, ...what, ...(note ? { note } : {}) },
      {
        onSuccess: () => {
          session.notify({ tag: 'request', type: 'success', content: `Request sent to ${to}. Follow it in Billing.`, timeout: 6000 });
          onDone();
        },
        onError: (error) => {
          const field = fieldOf(error);
          if (field && error instanceof ApiError) setErrors({ [field]: detailOf(error) });
        },
      },
    );
  }

  const serverField = send.error ? fieldOf(send.error) : null;
  const general = send.error && !serverField ? errorText(send.error) : '';
  const input = (field: Field) => ({
    id: `${prefix}-${field}`,
    value: values[field],
    'aria-invalid': Boolean(errors[field]),
    'aria-describedby': errors[field] ? `${prefix}-${field}-error` : undefined,
    onChange: (e: { target: { value: string } }) => change(field, e.target.value),
  });
  const fieldError = (field: Field) =>
    errors[field] ? (
      <span className="field-error" id={`${prefix}-${field}-error`}>
        {errors[field]}
      </span>
    ) : null;

  return (
    <form
      className="form form-flat product-form"
      onSubmit={submit}
      noValidate
      aria-label={product ? `Request payment for ${product.name}` : `Request a custom amount for ${service.name}`}
    >
      <p className="muted">
        {product
          ? `Ask someone to pay ${formatUsd(product.price)} for ${product.name}: they get an email with a link to accept and pay, or decline.`
          : 'Ask someone to pay an amount you choose, no product needed: they get an email with a link to accept and pay, or decline.'}
      </p>
      <label htmlFor={`${prefix}-email`}>Their email</label>
      <input type="email" autoComplete="off" {...input('email')} />
      {fieldError('email')}
      {custom ? (
        <>
          <label htmlFor={`${prefix}-amount`}>Amount (US dollars)</label>
          <input inputMode="decimal" placeholder="125.50" {...input('amount')} />
          {fieldError('amount')}
          <label htmlFor={`${prefix}-description`}>What it is for</label>
          <input maxLength={DESCRIPTION_MAX} placeholder="Consulting hour, 3 March" {...input('description')} />
          {fieldError('description')}
        </>
      ) : null}
      <label htmlFor={`${prefix}-note`}>Note (optional)</label>
      <textarea rows={2} maxLength={2000} {...input('note')} />
      {fieldError('note')}
      <FormError message={general} />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={send.isPending}>
          {send.isPending ? 'Sending…' : 'Send request'}
        </button>
        <button type="button" className="button button-ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
