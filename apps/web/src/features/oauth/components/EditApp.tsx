import type { OAuthAppView } from '@tinkerdesk/contracts/web';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import type { AppChanges } from '../api';
import { useUpdateApp } from '../hooks';
import { DETAIL_FIELDS, fieldOf, inputTypeOf, maxLengthOf, type AppFieldKey } from './app-fields';

const FIELDS = [['name', 'What to call the app'], ...DETAIL_FIELDS] as const;
type Key = AppFieldKey;

/**
 * Editing a registered app: its name, redirect URIs (checked as at registration), who made it and its
 * links, which the consent page shows. Focus goes to the first field on opening; Escape or Cancel closes.
 */
export function EditApp({ app, onClose }: { app: OAuthAppView; onClose: () => void }) {
  const id = useId();
  const update = useUpdateApp();
  const first = useRef<HTMLInputElement>(null);
  const [values, setValues] = useState({
    name: app.name,
    redirectUris: app.redirectUris.join('\n'),
    developerName: app.developerName ?? '',
    developerContact: app.developerContact ?? '',
    homepageUrl: app.homepageUrl ?? '',
    privacyUrl: app.privacyUrl ?? '',
    termsUrl: app.termsUrl ?? '',
  });
  useEffect(() => first.current?.focus(), []);
  const onField = fieldOf(update.error);
  const message = update.error ? errorText(update.error) : '';

  function save(event: FormEvent) {
    event.preventDefault();
    const changes: AppChanges = {
      ...values,
      redirectUris: values.redirectUris
        .split('\n')
        .map((u) => u.trim())
        .filter(Boolean),
    };
    update.mutate({ id: app.id, changes }, { onSuccess: onClose });
  }
  const fieldError = (key: Key) =>
    onField === key ? (
      <span className="field-error" id={`${id}-${key}-error`}>
        {message}
      </span>
    ) : null;
  const described = (key: Key) => ({
    'aria-invalid': onField === key,
    'aria-describedby': onField === key ? `${id}-${key}-error` : undefined,
  });

  return (
    <form className="form app-edit" aria-label={`Edit ${app.name}`} onSubmit={save} onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      {FIELDS.map(([key, label], i) => (
        <div key={key} className="form-field">
          <label htmlFor={`${id}-${key}`}>{label}</label>
          <input
            id={`${id}-${key}`}
            ref={i === 0 ? first : undefined}
            value={values[key]}
            required={key === 'name'}
            maxLength={maxLengthOf(key)}
            type={inputTypeOf(key)}
            onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
            {...described(key)}
          />
          {fieldError(key)}
        </div>
      ))}
      <div className="form-field">
        <label htmlFor={`${id}-redirectUris`}>Redirect URIs (one per line)</label>
        <textarea
          id={`${id}-redirectUris`}
          rows={3}
          value={values.redirectUris}
          onChange={(e) => setValues((v) => ({ ...v, redirectUris: e.target.value }))}
          {...described('redirectUris')}
        />
        {fieldError('redirectUris')}
      </div>
      <FormError message={onField ? '' : message} />
      <p className="form-actions">
        <button type="submit" className="button button-primary" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save changes'}
        </button>
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
      </p>
    </form>
  );
}
