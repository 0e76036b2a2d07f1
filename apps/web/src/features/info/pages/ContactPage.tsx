import { useEffect, useState, type FormEvent } from 'react';
import { Page } from '../../../shared/Page';
import { SUPPORT_EMAIL } from '../../../routes/paths';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const VALIDATION_DELAY_MS = 200;

interface Fields {
  name: string;
  email: string;
  question: string;
}

function validate(fields: Fields): Partial<Record<keyof Fields, string>> {
  const errors: Partial<Record<keyof Fields, string>> = {};
  if (!fields.name.trim()) errors.name = 'Please tell us your name.';
  if (!EMAIL.test(fields.email.trim())) errors.email = 'Please enter a valid email address.';
  if (fields.question.trim().length < 5) errors.question = 'Please write your question.';
  return errors;
}

/** Shows the server's error as the spec says: error, then ' - ' and detail when there is one. */
function errorText(body: unknown, status: number): string {
  if (body && typeof body === 'object' && 'error' in body) {
    const { error, detail } = body as { error: string; detail?: string };
    return detail ? `${error} - ${detail}` : error;
  }
  return `Sending failed (HTTP ${status})`;
}

export function ContactPage() {
  const [fields, setFields] = useState<Fields>({ name: '', email: '', question: '' });
  const [touched, setTouched] = useState<Partial<Record<keyof Fields, boolean>>>({});
  const [errors, setErrors] = useState<Partial<Record<keyof Fields, string>>>({});
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [serverError, setServerError] = useState('');

  // Fields are re-validated 200 ms after typing stops (spec section 5).
  useEffect(() => {
    const timer = setTimeout(() => setErrors(validate(fields)), VALIDATION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [fields]);

  const set = (key: keyof Fields) => (value: string) => {
    setFields((f) => ({ ...f, [key]: value }));
    setTouched((t) => ({ ...t, [key]: true }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(fields);
    setErrors(found);
    setTouched({ name: true, email: true, question: true });
    if (Object.keys(found).length > 0) return;
    setState('sending');
    setServerError('');
    try {
      const res = await fetch('/v1/contact', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(fields),
      });
      const body: unknown = await res.json().catch(() => undefined);
      if (!res.ok) throw new Error(errorText(body, res.status));
      setState('sent');
    } catch (error) {
      setServerError(error instanceof Error ? error.message : String(error));
      setState('idle');
    }
  }

  if (state === 'sent') {
    return (
      <Page title="Contact">
        <p className="notice notice-success" role="status">
          Thank you, {fields.name.trim()}. We received your question and will answer at {fields.email.trim()}.
        </p>
      </Page>
    );
  }

  const fieldError = (key: keyof Fields) =>
    touched[key] && errors[key] ? (
      <span className="field-error" id={`${key}-error`}>
        {errors[key]}
      </span>
    ) : null;

  return (
    <Page
      title="Contact"
      lead={
        <>
          Ask us anything. You can also write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </>
      }
    >
      <form className="form" onSubmit={submit} noValidate>
        <label htmlFor="contact-name">Name</label>
        <input
          id="contact-name"
          autoComplete="name"
          value={fields.name}
          onChange={(e) => set('name')(e.target.value)}
          aria-invalid={Boolean(touched.name && errors.name)}
          aria-describedby="name-error"
        />
        {fieldError('name')}
        <label htmlFor="contact-email">Email</label>
        <input
          id="contact-email"
          type="email"
          autoComplete="email"
          value={fields.email}
          onChange={(e) => set('email')(e.target.value)}
          aria-invalid={Boolean(touched.email && errors.email)}
          aria-describedby="email-error"
        />
        {fieldError('email')}
        <label htmlFor="contact-question">Question</label>
        <textarea
          id="contact-question"
          rows={6}
          value={fields.question}
          onChange={(e) => set('question')(e.target.value)}
          aria-invalid={Boolean(touched.question && errors.question)}
          aria-describedby="question-error"
        />
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
    </Page>
  );
}
