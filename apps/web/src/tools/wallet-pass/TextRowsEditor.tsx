import { useEffect, useRef } from 'react';
import { LIMITS, moveItem, rowKey, type PassDraft } from './draft';
import { Section, type Errors } from './DesignerFields';

/**
 * The pass's text rows: a label and a value each, moved, removed and added. The focus follows: a new
 * row's label, the next row after a removal, and the button that moved a row (or its other button at an
 * end of the list).
 */
export function TextRowsEditor({
  rows,
  errors,
  onChange,
}: {
  rows: PassDraft['textRows'];
  errors: Errors;
  onChange: (textRows: PassDraft['textRows']) => void;
}) {
  const focusRow = useRef<string | null>(null);
  useEffect(() => {
    if (focusRow.current) document.getElementById(focusRow.current)?.focus();
    focusRow.current = null;
  }, [rows]);

  const setRow = (key: string, patch: { header?: string; body?: string }) =>
    onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const move = (from: number, to: number, key: string, direction: 'up' | 'down') => {
    // The focus stays on the button that moved the row (or its other button at an end of the list).
    const end = (direction === 'up' && to === 0) || (direction === 'down' && to === rows.length - 1);
    focusRow.current = `wallet-row-${key}-${end ? (direction === 'up' ? 'down' : 'up') : direction}`;
    onChange(moveItem(rows, from, to));
  };

  return (
    <Section title="Text rows">
      <p className="wallet-hint wallet-rows-hint">
        {rows.length === 0 ? 'No rows. ' : ''}Each row shows a value under a small label (such as Points and 120); the label is optional.
      </p>
      <ol className="wallet-row-list">
        {rows.map((row, i) => {
          const error = errors[`row-${row.key}`];
          const headerBad = Boolean(error) && [...row.header.trim()].length > LIMITS.rowHeader;
          const bodyBad = Boolean(error) && !headerBad;
          const described = error ? `wallet-row-${row.key}-error` : undefined;
          return (
            <li key={row.key} className="wallet-row-edit">
              <fieldset>
                <legend className="visually-hidden">Row {i + 1}</legend>
                <div className="field">
                  <label htmlFor={`wallet-row-${row.key}-header`}>Row {i + 1} label</label>
                  <input
                    id={`wallet-row-${row.key}-header`}
                    type="text"
                    value={row.header}
                    aria-invalid={headerBad || undefined}
                    aria-describedby={headerBad ? described : undefined}
                    onChange={(e) => setRow(row.key, { header: e.target.value })}
                  />
                </div>
                <div className="field">
                  <label htmlFor={`wallet-row-${row.key}-body`}>Row {i + 1} value</label>
                  <input
                    id={`wallet-row-${row.key}-body`}
                    type="text"
                    value={row.body}
                    aria-invalid={bodyBad || undefined}
                    aria-describedby={bodyBad ? described : undefined}
                    onChange={(e) => setRow(row.key, { body: e.target.value })}
                  />
                </div>
                <div className="wallet-row-actions">
                  <button
                    type="button"
                    id={`wallet-row-${row.key}-up`}
                    className="button button-small"
                    onClick={() => move(i, i - 1, row.key, 'up')}
                    disabled={i === 0}
                    aria-label={`Move row ${i + 1} up`}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    id={`wallet-row-${row.key}-down`}
                    className="button button-small"
                    onClick={() => move(i, i + 1, row.key, 'down')}
                    disabled={i === rows.length - 1}
                    aria-label={`Move row ${i + 1} down`}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => {
                      const next = rows[i + 1] ?? rows[i - 1];
                      focusRow.current = next ? `wallet-row-${next.key}-header` : 'wallet-add-row';
                      onChange(rows.filter((r) => r.key !== row.key));
                    }}
                    aria-label={`Remove row ${i + 1}`}
                  >
                    Remove
                  </button>
                </div>
                {error ? (
                  <span className="field-error" id={`wallet-row-${row.key}-error`}>
                    {error}
                  </span>
                ) : null}
              </fieldset>
            </li>
          );
        })}
      </ol>
      <p className="wallet-add-row">
        <button
          type="button"
          id="wallet-add-row"
          className="button button-small"
          disabled={rows.length >= LIMITS.textRows}
          onClick={() => {
            const key = rowKey();
            focusRow.current = `wallet-row-${key}-header`;
            onChange([...rows, { key, header: '', body: '' }]);
          }}
        >
          Add row
        </button>
        <span className="wallet-hint">
          {rows.length} of {LIMITS.textRows} rows
        </span>
      </p>
    </Section>
  );
}
