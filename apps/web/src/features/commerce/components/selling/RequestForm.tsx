import { formatUsd, type ProductView, type ServiceView } from '@tinkerdesk/contracts/web';
import { useCallback, type FormEvent } from 'react';
import { errorText } from '../../../../shared/api';
import { EMAIL_PATTERN, FieldError, focusField, FormError, refusalWords, refusedField, useValidatedForm } from '../../../../shared/forms';
import { session, useSession } from '../../../../shared/session/session';
import { useSendRequest } from '../../hooks/selling';
import { dollarsToCents } from '../../money';

/** As long as a product's name: the description names the order and the receipt (REQUEST_DESCRIPTION_MAX). */
const DESCRIPTION_MAX = 120;
type Field = 'email' | 'amount' | 'description' | 'note';
const FIELDS: Field[] = ['email', 'amount', 'description', 'note'];
/** Each field's short name, said first in its errors ("Email: …"). */
const NAMES: Record<Field, string> = { email: 'Email', amount: 'Amount', description: 'Description', note: 'Note' };

/**
 * Ask a person by email to pay: for a product (`product`), or a custom amount with a description
 * (no product). They get a link to accept and pay, or decline. Errors show on the field they concern
 * (checked again 200 ms after typing stops, and at once on sending); a server refusal about a field too.
 */
export function RequestForm({ service, product, onDone }: { service: ServiceView; product?: ProductView; onDone: () => void }) {
  const { token } = useSession();
  const send = useSendRequest();
  const custom = !product;
  const prefix = custom ? `request-${service.id.slice(0, 8)}` : `request-${product.id.slice(0, 8)}`;
  const validate = useCallback(
    (values: Record<Field, string>) => {
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
    },
    [custom],
  );
  const form = useValidatedForm<Field>(prefix, { email: '', amount: '', description: '', note: '' }, validate);
  const values = form.fields;
  const serverField = refusedField(send.error, FIELDS);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!token) return;
    send.reset();
    if (!form.check()) return;
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
        onError: (error) => focusField(prefix, refusedField(error, FIELDS)),
      },
    );
  }

  const general = send.error && !serverField ? errorText(send.error) : '';
  /** The field's error: what is wrong with it as typed, else the server's refusal of it. */
  const errorOf = (field: Field): string | undefined =>
    form.errorOf(field) ?? (serverField === field ? refusalWords(send.error) : undefined);
  const input = (field: Field) => {
    const error = errorOf(field);
    const props = form.fieldProps(field);
    return {
      ...props,
      required: field !== 'note' && (custom || field === 'email'),
      'aria-invalid': Boolean(error),
      'aria-describedby': error ? `${prefix}-${field}-error` : undefined,
      onChange: (e: { target: { value: string } }) => {
        props.onChange(e);
        if (serverField === field) send.reset();
      },
    };
  };
  const fieldError = (field: Field) => <FieldError id={`${prefix}-${field}-error`} name={NAMES[field]} message={errorOf(field)} />;

  return (
    <form
      className="form form-flat product-form"
      onSubmit={submit}
      noValidate
      aria-label={product ? `Request payment for ${product.name}` : `Request a custom amount for ${service.name}`}
    >
      <FormError message={general} />
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
