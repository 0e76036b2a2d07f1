import { MAX_STEP, type Counter } from '@tinkerdesk/tools/counters';
import { useState } from 'react';
import type { Confirm } from './use-counters';

/** The id of a counter's card, which takes the focus (after adding, or Esc in the new counter's name). */
export const cardId = (id: string): string => `counter-card-${id}`;

/** One counter: its name (edited in place), count, − and + buttons, step, Reset, Delete and moves, and the confirmation asked. */
export function CounterCard({
  counter,
  index,
  total,
  selected,
  confirm,
  onSelect,
  onBump,
  onRename,
  onStep,
  onAsk,
  onConfirm,
  onMove,
}: {
  counter: Counter;
  index: number;
  total: number;
  selected: boolean;
  confirm: Confirm;
  onSelect: () => void;
  onBump: (times: number) => void;
  onRename: (label: string) => string | undefined;
  onStep: (step: number) => string | undefined;
  onAsk: (kind: 'reset' | 'delete' | null) => void;
  onConfirm: () => void;
  onMove: (to: number) => void;
}) {
  const [name, setName] = useState<string | null>(null);
  const [stepText, setStepText] = useState<string | null>(null);
  const [problem, setProblem] = useState('');
  const asking = confirm?.id === counter.id ? confirm.kind : null;
  const titleId = `counter-${counter.id}`;

  return (
    <section
      id={cardId(counter.id)}
      tabIndex={-1}
      className={selected ? 'counter-card selected' : 'counter-card'}
      aria-labelledby={titleId}
      onFocusCapture={onSelect}
      onClick={onSelect}
    >
      <div className="counter-head">
        <span className="counter-key" aria-hidden="true">
          {index < 9 ? index + 1 : ''}
        </span>
        <h2 id={titleId} className="visually-hidden">
          {counter.label}
        </h2>
        <input
          className="counter-name"
          aria-label={`Name of ${counter.label}`}
          value={name ?? counter.label}
          maxLength={80}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => {
            if (name !== null) setProblem(onRename(name) ?? '');
            setName(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.currentTarget.blur();
            if (e.key === 'Escape') {
              setName(null);
              e.currentTarget.blur();
            }
          }}
        />
      </div>
      <output className="counter-value" aria-live="polite" aria-label={`${counter.label} count`}>
        {counter.count.toLocaleString('en')}
      </output>
      <div className="counter-buttons">
        <button type="button" className="button counter-bump" aria-label={`Decrease ${counter.label}`} onClick={() => onBump(-1)}>
          −{counter.step === 1 ? '' : counter.step.toLocaleString('en')}
        </button>
        <button
          type="button"
          className="button button-primary counter-bump"
          aria-label={`Increase ${counter.label}`}
          onClick={() => onBump(1)}
        >
          +{counter.step === 1 ? '' : counter.step.toLocaleString('en')}
        </button>
      </div>
      <div className="counter-tools">
        <label>
          Step
          <input
            type="number"
            min={1}
            max={MAX_STEP}
            aria-label={`Step of ${counter.label}`}
            value={stepText ?? counter.step}
            onChange={(e) => {
              setStepText(e.target.value);
              const error = onStep(Number(e.target.value));
              setProblem(error ?? '');
              if (!error) setStepText(null);
            }}
            onBlur={() => setStepText(null)}
          />
        </label>
        <button type="button" className="button button-small" onClick={() => onAsk('reset')} disabled={counter.count === 0}>
          Reset
        </button>
        <button type="button" className="button button-small" onClick={() => onAsk('delete')}>
          Delete
        </button>
        <button
          type="button"
          className="button button-small"
          aria-label={`Move ${counter.label} up`}
          disabled={index === 0}
          onClick={() => onMove(index - 1)}
        >
          ↑
        </button>
        <button
          type="button"
          className="button button-small"
          aria-label={`Move ${counter.label} down`}
          disabled={index === total - 1}
          onClick={() => onMove(index + 1)}
        >
          ↓
        </button>
      </div>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      {asking ? (
        <div
          className="counter-confirm"
          role="alertdialog"
          aria-label={asking === 'reset' ? `Reset ${counter.label}` : `Delete ${counter.label}`}
        >
          <p>{asking === 'reset' ? `Reset ${counter.label} to 0?` : `Delete ${counter.label} and its count?`}</p>
          <button type="button" className="button button-small button-danger" onClick={onConfirm} autoFocus>
            {asking === 'reset' ? 'Yes, reset' : 'Yes, delete'}
          </button>
          <button type="button" className="button button-small" onClick={() => onAsk(null)}>
            Cancel
          </button>
        </div>
      ) : null}
    </section>
  );
}
