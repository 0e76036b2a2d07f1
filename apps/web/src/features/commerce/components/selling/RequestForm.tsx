import { formatUsd, type ProductView, type ServiceView } from '@tinkerdesk/contracts/web';
import { useState, type FormEvent } from 'react';
import { errorText } from '../../../../shared/api';
import { EMAIL_PATTERN, FormError } from '../../../../shared/forms';
import { session, useSession } from '../../../../shared/session/session';
import { useSendRequest } from '../../hooks/selling';

/** Ask a person by email to pay for a product: they get a link to accept and pay, or decline. */
export function RequestForm({ service, product, onDone }: { service: ServiceView; product: ProductView; onDone: () => void }) {
  const { token } = useSession();
  const [email, setEmail] = useState('');
  const [note, setNote] = useState('');
  const [refusal, setRefusal] = useState('');
  const send = useSendRequest();
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!token) return;
    if (!EMAIL_PATTERN.test(email.trim())) return (send.reset(), setRefusal('Please enter a valid email address.'));
    setRefusal('');
    const to = email.trim();
    send.mutate(
      { email: to, service: service.id, product: product.id, ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: () => {
          session.notify({ tag: 'request', type: 'success', content: `Request sent to ${to}. Follow it in Billing.`, timeout: 6000 });
          onDone();
        },
      },
    );
  }
  const error = refusal || (send.error ? errorText(send.error) : '');
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
