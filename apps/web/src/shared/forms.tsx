import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, errorText } from './api';
import { splitErrorText } from './error-sentences';

/** Email pattern: something@something.tld, no spaces (docs/web-app.md#forms-and-error-texts). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
/** Fields are re-validated this long after typing stops (docs/web-app.md#forms-and-error-texts). */
export const VALIDATION_DELAY_MS = 200;

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/**
 * A form's fields with the house validation rules: errors are re-computed 200 ms after typing stops
 * (the timer restarts on every change) and shown for fields the user has touched; submit() checks
 * at once, shows every error and focuses the first invalid field.
 */
export function useValidatedForm<K extends string>(
  idPrefix: string,
  initial: Record<K, string>,
  validate: (fields: Record<K, string>) => FieldErrors<K>,
) {
  const [fields, setFields] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});
  const [errors, setErrors] = useState<FieldErrors<K>>({});

  useEffect(() => {
    const timer = setTimeout(() => setErrors(validate(fields)), VALIDATION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [fields, validate]);

  const change = (key: K, value: string) => {
    setFields((f) => ({ ...f, [key]: value }));
    setTouched((t) => ({ ...t, [key]: true }));
  };

  /** Validates now; answers whether the form may be sent. */
  const check = (): boolean => {
    const found = validate(fields);
    setErrors(found);
    setTouched(Object.fromEntries(Object.keys(fields).map((k) => [k, true])) as Record<K, boolean>);
    const first = (Object.keys(fields) as K[]).find((k) => found[k]);
    if (first) document.getElementById(`${idPrefix}-${first}`)?.focus();
    return !first;
  };

  const shown = (key: K): string | undefined => (touched[key] ? errors[key] : undefined);

  const fieldProps = (key: K) => ({
    id: `${idPrefix}-${key}`,
    name: key,
    value: fields[key],
    required: true,
    'aria-invalid': Boolean(shown(key)),
    'aria-describedby': shown(key) ? `${idPrefix}-${key}-error` : undefined,
    onChange: (event: { target: { value: string } }) => change(key, event.target.value),
  });

  const fieldError = (key: K, name?: string) => <FieldError id={`${idPrefix}-${key}-error`} name={name} message={shown(key)} />;

  return { fields, change, check, fieldProps, fieldError, errorOf: shown };
}

/**
 * A server error under a form (role alert so screen readers hear it): the sentence, then the spec's
 * `error - detail` on a smaller details line when the text has one (shared/error-sentences.ts).
 */
export function FormError({ message }: { message: string }) {
  if (!message) return null;
  const { sentence, details } = splitErrorText(message);
  return (
    <p className="notice notice-error" role="alert">
      {sentence}
      {details ? (
        <>
          {'\n'}
          <small className="error-details">Details: {details}</small>
        </>
      ) : null}
    </p>
  );
}

/**
 * The sending state of a form, a TanStack Query mutation: run() marks it sending, clears the last
 * error, and on failure shows the error (error - detail by default) and lets the user try again.
 */
export function useSubmission(describe: (error: unknown) => string = errorText) {
  const submission = useMutation({ mutationFn: (work: () => Promise<void>) => work() });
  const state: 'idle' | 'sending' | 'done' = submission.isPending ? 'sending' : submission.isSuccess ? 'done' : 'idle';
  const error = submission.error ? describe(submission.error) : '';
  const run = (work: () => Promise<void>): Promise<void> => submission.mutateAsync(work).catch(() => undefined);
  return { state, error, run };
}

/**
 * The field a server refusal concerns (docs/web-app.md#inline-forms): its `detail` starts with the
 * field's name ("amount must be…", "email: …"), as the gateway's validation and the services word it.
 */
export function refusedField<K extends string>(error: unknown, fields: readonly K[]): K | null {
  if (!(error instanceof ApiError) || !error.detail) return null;
  const detail = error.detail;
  return fields.find((f) => detail.startsWith(`${f} `) || detail.startsWith(`${f}:`)) ?? null;
}

/**
 * A refusal's detail as a sentence for its field: "description must be one line" → "Description must be one line."
 * `field` → `name` says the field as the form names it: ("label", "Name") → "Name must not be empty.".
 */
export function refusalWords(error: unknown, field?: string, name?: string): string {
  let text = (error instanceof ApiError ? (error.detail ?? '') : '').replace(/^(\w+):\s*/, '');
  if (field && name && text.startsWith(`${field} `)) text = `${name}${text.slice(field.length)}`;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
}

/** The error text of a field, named by it ("Amount: …") unless its sentence already starts with the name. */
export function namedError(name: string | undefined, message: string): string {
  if (!name || message.toLowerCase().startsWith(name.toLowerCase())) return message;
  return `${name}: ${message}`;
}

/**
 * An error under the field it concerns: the field points at it with aria-describedby (and is
 * aria-invalid); `name` is the field's short name, said first (docs/web-app.md#inline-forms).
 */
export function FieldError({ id, name, message }: { id: string; name?: string | undefined; message?: string | undefined }) {
  if (!message) return null;
  return (
    <span className="field-error" id={id}>
      {namedError(name, message)}
    </span>
  );
}

/** Moves the focus to a field a refusal concerns (its id is `${prefix}-${field}`); none: the focus stays. */
export function focusField(prefix: string, field: string | null | undefined): void {
  if (field) document.getElementById(`${prefix}-${field}`)?.focus();
}
