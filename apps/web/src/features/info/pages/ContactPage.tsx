import { useEffect, useRef, type FormEvent } from 'react';
import { EMAIL_PATTERN, FormError, useSubmission, useValidatedForm, type FieldErrors } from '../../../shared/forms';
import { Link } from 'react-router-dom';
import { PATHS, SUPPORT_EMAIL } from '../../../routes/paths';
import { BookIcon, CodeIcon, MailIcon } from '../../../shared/icons';
import { Page } from '../../../shared/Page';
import { useSession } from '../../../shared/session/session';
import { sendContactMessage } from '../api';

interface Fields {
  name: string;
  email: string;
  question: string;
}

function validate(fields: Fields): FieldErrors<keyof Fields> {
  const errors: FieldErrors<keyof Fields> = {};
  if (!fields.name.trim()) errors.name = 'Please tell us your name.';
  if (!EMAIL_PATTERN.test(fields.email.trim())) errors.email = 'Please enter a valid email address.';
  if (fields.question.trim().length < 5) errors.question = 'Please write your question (at least 5 characters).';
  return errors;
}

/**
 * /contact. Signed in, the name and email come filled in from the profile (the form is made again
 * once the session is known, which happens right after the page loads, before anyone types).
 */
export function ContactPage() {
  const { profile } = useSession();
  return <ContactForm key={profile?.guid ?? 'anonymous'} name={profile?.name ?? ''} email={profile?.email ?? ''} />;
}

function ContactForm({ name, email }: { name: string; email: string }) {
  const { fields, check, fieldProps, fieldError } = useValidatedForm<keyof Fields>('contact', { name, email, question: '' }, validate);
  const { state, error: serverError, run } = useSubmission();
  const thanks = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (state === 'done') thanks.current?.focus();
  }, [state]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!check()) return;
    await run(async () => {
      await sendContactMessage(fields.name.trim(), fields.email.trim(), fields.question.trim());
    });
  }

  return (
    <Page title="Contact" lead="Questions, ideas, or something that does not work? Tell us." wide>
      <div className="contact-layout">
        {state === 'done' ? (
          <div className="notice notice-success contact-thanks" role="status" tabIndex={-1} ref={thanks}>
            <h2>Thank you, {fields.name.trim()}!</h2>
            <p>
              We received your question and will answer at <strong>{fields.email.trim()}</strong>.
            </p>
          </div>
        ) : (
          <form className="form card" onSubmit={submit} noValidate>
            <label htmlFor="contact-name">Name</label>
            <input {...fieldProps('name')} autoComplete="name" />
            {fieldError('name')}
            <label htmlFor="contact-email">Email</label>
            <input {...fieldProps('email')} type="email" autoComplete="email" />
            {fieldError('email')}
            <label htmlFor="contact-question">Question</label>
            <textarea {...fieldProps('question')} rows={6} />
            {fieldError('question')}
            <FormError message={serverError} />
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
