import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { ApiError } from '../../../shared/api';
import { checkResetLink, requestPasswordReset, resetPassword } from '../api';
import { EMAIL_PATTERN, FormError, useSubmission, useValidatedForm, type FieldErrors } from '../../../shared/forms';
import { MIN_PASSWORD } from './CredentialsForm';
import { PasswordInput } from './PasswordInput';

function validateEmail(fields: { email: string }): FieldErrors<'email'> {
  return EMAIL_PATTERN.test(fields.email.trim()) ? {} : { email: 'Please enter a valid email address.' };
}

/** /login#!/reset: asks for a reset link (the answer is the same whether or not the account exists). */
export function ResetRequestForm() {
  // The email typed on the sign-in form comes along ("Forgot your password?" passes it).
  const carried = (useLocation().state as { email?: unknown } | null)?.email;
  const { fields, check, fieldProps, fieldError } = useValidatedForm<'email'>(
    'reset',
    { email: typeof carried === 'string' ? carried : '' },
    validateEmail,
  );
  const { state, error: serverError, run } = useSubmission();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (check()) await run(async () => void (await requestPasswordReset(fields.email.trim())));
  }

  if (state === 'done') {
    return (
      <div className="notice notice-success" role="status">
        <p>
          If an account exists for <strong>{fields.email.trim()}</strong>, we have emailed it a link to choose a new password. The link
          works once, for 60 minutes.
        </p>
        <p>
          <Link to={PATHS.signIn}>Back to sign in</Link>
        </p>
      </div>
    );
  }
  return (
    <form className="form auth-form" onSubmit={submit} noValidate aria-label="Reset your password">
      <p className="muted">Enter the email address of your account and we will send you a link to choose a new password.</p>
      <label htmlFor="reset-email">Email</label>
      <input {...fieldProps('email')} type="email" autoComplete="email" inputMode="email" maxLength={254} />
      {fieldError('email')}
      <FormError message={serverError} />
      <button className="button button-primary button-large" type="submit" disabled={state === 'sending'}>
        {state === 'sending' ? 'Sending…' : 'Send reset link'}
      </button>
      <p className="form-footer">
        <Link to={PATHS.signIn}>Back to sign in</Link>
      </p>
    </form>
  );
}

type NewPasswordField = 'password' | 'confirm';

function validateNewPassword(fields: Record<NewPasswordField, string>): FieldErrors<NewPasswordField> {
  const errors: FieldErrors<NewPasswordField> = {};
  if (fields.password.length < MIN_PASSWORD) errors.password = `Please choose a password of at least ${MIN_PASSWORD} characters.`;
  if (fields.confirm !== fields.password) errors.confirm = 'The two passwords are not the same.';
  return errors;
}

/**
 * /login#!/reset/{token}: sets the new password; every session of the account ends. The link is
 * checked as the page opens, so a used or expired one is said before anyone types a password.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const [link, setLink] = useState<{ token: string; usable: boolean } | null>(null);
  useEffect(() => {
    let current = true;
    checkResetLink(token).then(
      () => current && setLink({ token, usable: true }),
      // Only the server's "used or expired" closes the form; any other trouble leaves it to the submit.
      (error: unknown) => current && setLink({ token, usable: !(error instanceof ApiError && error.error === 'LINK_INVALID') }),
    );
    return () => {
      current = false;
    };
  }, [token]);
  if (link?.token === token && !link.usable) {
    return (
      <div className="notice notice-error" role="alert">
        <p>This reset link was used already or has expired: each link works once, for 60 minutes.</p>
        <p>
          <Link className="button button-primary" to={PATHS.resetRequest}>
            Ask for a new link
          </Link>
        </p>
      </div>
    );
  }
  return <NewPasswordForm token={token} />;
}

function NewPasswordForm({ token }: { token: string }) {
  const { fields, check, fieldProps, fieldError } = useValidatedForm<NewPasswordField>(
    'new',
    { password: '', confirm: '' },
    validateNewPassword,
  );
  const { state, error: serverError, run } = useSubmission();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (check()) await run(async () => void (await resetPassword(token, fields.password)));
  }

  if (state === 'done') {
    return (
      <div className="notice notice-success" role="status">
        <p>Your password has been changed, and every device that was signed in has been signed out.</p>
        <p>
          <Link className="button button-primary" to={PATHS.signIn}>
            Sign in with your new password
          </Link>
        </p>
      </div>
    );
  }
  return (
    <form className="form auth-form" onSubmit={submit} noValidate aria-label="Choose a new password">
      <label htmlFor="new-password">New password</label>
      <PasswordInput {...fieldProps('password')} autoComplete="new-password" maxLength={1024} />
      {fieldError('password')}
      <label htmlFor="new-confirm">Repeat the new password</label>
      <PasswordInput {...fieldProps('confirm')} autoComplete="new-password" maxLength={1024} />
      {fieldError('confirm')}
      <FormError message={serverError} />
      {serverError ? (
        <p className="hint">
          Links work once and for 60 minutes. <Link to={PATHS.resetRequest}>Ask for a new link</Link>.
        </p>
      ) : null}
      <button className="button button-primary button-large" type="submit" disabled={state === 'sending'}>
        {state === 'sending' ? 'Saving…' : 'Set new password'}
      </button>
    </form>
  );
}
