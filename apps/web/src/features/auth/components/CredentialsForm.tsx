import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { splitErrorText } from '../../../shared/error-sentences';
import { EMAIL_PATTERN, FormError, useSubmission, useValidatedForm, type FieldErrors } from '../../../shared/forms';
import { session } from '../../../shared/session/session';
import { signIn, signUp } from '../api';
import { authErrorText } from '../conflict-texts';
import { PasswordInput } from './PasswordInput';
import { browserTimeZone } from '../../account/time-zones';

export const MIN_PASSWORD = 8;

type Field = 'email' | 'password';

function validateSignUp(fields: Record<Field, string>): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  if (!EMAIL_PATTERN.test(fields.email.trim())) errors.email = 'Please enter a valid email address.';
  if (fields.password.length < MIN_PASSWORD) errors.password = `Please choose a password of at least ${MIN_PASSWORD} characters.`;
  return errors;
}

function validateSignIn(fields: Record<Field, string>): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  if (!EMAIL_PATTERN.test(fields.email.trim())) errors.email = 'Please enter a valid email address.';
  if (!fields.password) errors.password = 'Please enter your password.';
  return errors;
}

/**
 * Sign up (POST /v1/users) or sign in (POST /v1/users/{email}/signin): email and password, checked
 * by pattern and re-validated 200 ms after typing stops; the server's error shown as error - detail
 * (or the conflict text of its key); on success the session starts and onDone runs.
 */
export function CredentialsForm({ mode, onDone, next }: { mode: 'register' | 'login'; onDone: () => void; next?: string | undefined }) {
  const register = mode === 'register';
  const { fields, check, fieldProps, fieldError } = useValidatedForm<Field>(
    mode,
    { email: '', password: '' },
    register ? validateSignUp : validateSignIn,
  );
  const { state, error: serverError, run } = useSubmission(authErrorText);
  const busy = state !== 'idle';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!check()) return;
    const email = fields.email.trim();
    await run(async () => {
      const result = register ? await signUp(email, fields.password, browserTimeZone(), next) : await signIn(email, fields.password);
      await session.login(result);
      onDone();
    });
  }

  return (
    <form className="form auth-form" onSubmit={submit} noValidate aria-label={register ? 'Sign up' : 'Sign in'}>
      <label htmlFor={`${mode}-email`}>Email</label>
      <input {...fieldProps('email')} type="email" autoComplete="email" inputMode="email" maxLength={254} />
      {fieldError('email')}
      <div className="label-row">
        <label htmlFor={`${mode}-password`}>Password</label>
        {register ? null : (
          // The email typed so far goes along, so it is not typed twice.
          <Link to={PATHS.resetRequest} state={{ email: fields.email.trim() }}>
            Forgot your password?
          </Link>
        )}
      </div>
      <PasswordInput {...fieldProps('password')} autoComplete={register ? 'new-password' : 'current-password'} maxLength={1024} />
      {fieldError('password')}
      {register ? <p className="hint">At least {MIN_PASSWORD} characters. A long passphrase is best.</p> : null}
      <FormError message={serverError} />
      {!register && splitErrorText(serverError).details?.startsWith('RATE_LIMITED') ? (
        <p className="hint">
          Too many wrong passwords for this account from here: wait, or{' '}
          <Link to={PATHS.resetRequest} state={{ email: fields.email.trim() }}>
            choose a new password
          </Link>{' '}
          now.
        </p>
      ) : null}
      <button className="button button-primary button-large" type="submit" disabled={busy}>
        {busy ? (register ? 'Creating your account…' : 'Signing in…') : register ? 'Sign up' : 'Sign in'}
      </button>
    </form>
  );
}
