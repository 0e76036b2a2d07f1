import type { ReactNode } from 'react';

/**
 * A main text field of a tool: its accessible name is exactly its label ("Input" or "Output"), with
 * its actions (copy, download, clear ...) beside the label and an optional error under it.
 */
export function TextPane({
  id,
  label,
  value,
  onChange,
  readOnly,
  actions,
  error,
  placeholder,
  rows = 12,
  info,
  wrap = 'soft',
}: {
  id: string;
  label: 'Input' | 'Output';
  value: string;
  onChange?: (value: string) => void;
  readOnly?: boolean;
  actions?: ReactNode;
  error?: string;
  placeholder?: string;
  rows?: number;
  info?: ReactNode;
  /** 'off' keeps long lines whole (scrolling sideways), for hex dumps and other column layouts. */
  wrap?: 'soft' | 'off';
}) {
  return (
    <div className="text-pane">
      <div className="text-pane-head">
        <label htmlFor={id}>{label}</label>
        <div className="text-pane-actions">{actions}</div>
      </div>
      <textarea
        id={id}
        value={value}
        rows={rows}
        readOnly={readOnly}
        wrap={wrap}
        placeholder={placeholder}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={onChange ? (event) => onChange(event.target.value) : undefined}
      />
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
      {info ? <p className="text-pane-info">{info}</p> : null}
    </div>
  );
}
