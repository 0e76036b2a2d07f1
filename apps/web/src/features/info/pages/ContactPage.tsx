import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { PATHS, SUPPORT_EMAIL } from '../../../routes/paths';
import { BookIcon, CodeIcon, MailIcon } from '../../../shared/icons';
import { Page } from '../../../shared/Page';

/** Email pattern: something@something.tld, no spaces (spec section 5 leaves the pattern to us). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
/** Fields are re-validated this long after typing stops (spec sections 5 and 9). */
const VALIDATION_DELAY_MS = 200;

interface Fields {
  name: string;
  email: string;
  question: string;
}
type FieldErrors = Partial<Record<keyof Fields, string>>;

function validate(fields: Fields): FieldErrors {
  const errors: FieldErrors = {};
  if (!fields.name.trim()) errors.name = 'Please tell us your name.';
  if (!EMAIL_PATTERN.test(fields.email.trim())) errors.email = 'Please enter a valid email address.';
  if (fields.question.trim().length < 5) errors.question = 'Please write your question (at least 5 characters).';
  return errors;
}

/** The server's error as the spec shows it: error, then ' - ' and detail when there is one. */
function errorText(body: unknown, status: number): string {
  if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') {
    const detail = 'detail' in body && typeof body.detail === 'string' ? body.detail : '';
    return detail ? `${body.error} - ${detail}` : body.error;
  }
  return `Sending failed (HTTP ${status})`;
}

export function ContactPage() {
  const [fields, setFields] = useState<Fields>({ name: '', email: '', question: '' });
  const [touched, setTouched] = useState<Partial<Record<keyof Fields, boolean>>>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [serverError, setServerError] = useState('');
  const thanks = useRef<HTMLDivElement>(null);

  // Re-validate 200 ms after typing stops (the timer restarts on every change).
  useEffect(() => {
    const timer = setTimeout(() => setErrors(validate(fields)), VALIDATION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [fields]);

  useEffect(() => {
    if (state === 'sent') thanks.current?.focus();
  }, [state]);

  const change = (key: keyof Fields, value: string) => {
    setFields((f) => ({ ...f, [key]: value }));
    setTouched((t) => ({ ...t, [key]: true }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(fields);
    setErrors(found);
    setTouched({ name: true, email: true, question: true });
    if (Object.keys(found).length > 0) {
      const first = (['name', 'email', 'question'] as const).find((k) => found[k]);
      if (first) document.getElementById(`contact-${first}`)?.focus();
      return;
    }
    setState('sending');
    setServerError('');
    try {
      const res = await fetch('/v1/contact', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ name: fields.name.trim(), email: fields.email.trim(), question: fields.question.trim() }),
      });
      const body: unknown = await res.json().catch(() => undefined);
      if (!res.ok || (body && typeof body === 'object' && 'success' in body && body.success === false)) {
        throw new Error(errorText(body, res.status));
      }
      setState('sent');
    } catch (error) {
      setServerError(error instanceof Error ? error.message : String(error));
      setState('idle');
    }
  }

  const shown = (key: keyof Fields) => (touched[key] ? errors[key] : undefined);
  const fieldProps = (key: keyof Fields) => ({
    id: `contact-${key}`,
    name: key,
    value: fields[key],
    required: true,
    'aria-invalid': Boolean(shown(key)),
    'aria-describedby': shown(key) ? `contact-${key}-error` : undefined,
  });
  const fieldError = (key: keyof Fields) =>
    shown(key) ? (
      <span className="field-error" id={`contact-${key}-error`}>
        {shown(key)}
      </span>
    ) : null;

  return (
    <Page title="Contact" lead="Questions, ideas, or something that does not work? Tell us." wide>
      <div className="contact-layout">
        {state === 'sent' ? (
          <div className="notice notice-success contact-thanks" role="status" tabIndex={-1} ref={thanks}>
            <h2>Thank you, {fields.name.trim()}!</h2>
            <p>
              We received your question and will answer at <strong>{fields.email.trim()}</strong>.
            </p>
          </div>
        ) : (
          <form className="form card" onSubmit={submit} noValidate>
            <label htmlFor="contact-name">Name</label>
            <input {...fieldProps('name')} autoComplete="name" onChange={(e) => change('name', e.target.value)} />
            {fieldError('name')}
            <label htmlFor="contact-email">Email</label>
            <input {...fieldProps('email')} type="email" autoComplete="email" onChange={(e) => change('email', e.target.value)} />
            {fieldError('email')}
            <label htmlFor="contact-question">Question</label>
            <textarea {...fieldProps('question')} rows={6} onChange={(e) => change('question', e.target.value)} />
            {fieldError('question')}
            {serverError ? (
              <p className="notice notice-error" role="alert">
                {serverError}
              </p>
            ) : null}
            <button className="button button-primary" type="submit" disabled={state === 'sending'}>
              {state === 'sending' ? 'Sending…' : 'Send'}
            </button>
          </form>
        )}
        <aside className="contact-aside" aria-label="Other ways to get help">
          <h2>Other ways to get help</h2>
          <ul>
            <li>
              <MailIcon />
              <span>
                Email <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
              </span>
            </li>
            <li>
              <BookIcon />
              <span>
                Read the <Link to={PATHS.help}>help</Link> and the <Link to={PATHS.faq}>FAQ</Link>
              </span>
            </li>
            <li>
              <CodeIcon />
              <span>
                Integrators: the <a href={PATHS.apiDocs}>API docs</a>
              </span>
            </li>
          </ul>
        </aside>
      </div>
    </Page>
  );
}
