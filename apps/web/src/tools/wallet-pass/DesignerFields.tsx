import type { ReactNode } from 'react';
import type { DraftField } from './draft';

/** The designer's errors by field (a text row's under `row-<key>`). */
export type Errors = Partial<Record<DraftField, string>>;

/** The labelled text field of the designer, with its error under it (announced, tied by aria-describedby). */
export function TextField({
  id,
  label,
  value,
  onChange,
  error,
  max,
  required,
  hint,
  placeholder,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  max?: number;
  required?: boolean;
  hint?: string;
  placeholder?: string;
}) {
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required ? null : <span className="wallet-optional"> (optional)</span>}
      </label>
      <input
        id={id}
        type="text"
        value={value}
        maxLength={max !== undefined ? max + 20 : undefined}
        required={required}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint ? (
        <span className="wallet-hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

export function Section({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <fieldset className={className ? `wallet-section ${className}` : 'wallet-section'}>
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}
