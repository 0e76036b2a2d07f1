import {
  bump,
  checkLabel,
  checkStep,
  CounterError,
  countersCsv,
  createCounter,
  MAX_STEP,
  move,
  reset,
  sorted,
  type Counter,
} from '@tinkerdesk/tools/counters';
import { useCallback, useEffect, useRef, useState } from 'react';
import { randomId } from '../../shared/storage/db';
import { CopyButton, DownloadButton } from '../../shared/ui/actions';
import { TextPane } from '../../shared/ui/TextPane';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import type { ToolPageProps } from '../types';
import { deleteCounter, loadCounters, onOtherTabChange, saveCounters } from './counter-store';

type Confirm = { kind: 'reset' | 'delete'; id: string } | null;

function message(error: unknown): string {
  return error instanceof CounterError ? error.message : 'Something went wrong';
}

/** Keys typed into these are theirs, not shortcuts. */
function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

const cardId = (id: string): string => `counter-card-${id}`;

function CounterCard({
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

export default function CounterPage(_props: ToolPageProps) {
  const [counters, setCounters] = useState<Counter[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [newName, setNewName] = useState('');
  const [problem, setProblem] = useState('');
  const [storageProblem, setStorageProblem] = useState('');
  const newField = useRef<HTMLInputElement>(null);
  /** The counter whose card takes the focus once it is on the page (after adding, or Esc in the name field). */
  const focusCard = useRef<string | null>(null);
  const list = counters ? sorted(counters) : [];
  const current = list.find((c) => c.id === selected) ?? list[0];

  const reload = useCallback(
    (first: boolean) =>
      loadCounters().then(
        (loaded) => {
          if (first && loaded.length === 0) {
            const starter = createCounter('Counter 1', [], randomId(), Date.now());
            setCounters([starter]);
            saveCounters([starter]).catch(() => undefined);
          } else setCounters(loaded);
        },
        () => {
          setStorageProblem(
            'This browser does not let the page keep data (a private window?): the counters work, but are gone when you leave.',
          );
          setCounters((now) => now ?? [createCounter('Counter 1', [], randomId(), Date.now())]);
        },
      ),
    [],
  );
  useEffect(() => {
    void reload(true);
    return onOtherTabChange(() => void reload(false));
  }, [reload]);

  /** Applies a change: the new list on the page at once, the changed counters to the database. */
  const commit = useCallback((next: Counter[], changed: Counter[]) => {
    setCounters(next);
    saveCounters(changed).catch(() => setStorageProblem('The last change could not be saved in this browser.'));
  }, []);

  const update = useCallback(
    (id: string, change: (c: Counter) => Counter): string | undefined => {
      if (!counters) return undefined;
      const target = counters.find((c) => c.id === id);
      if (!target) return undefined;
      try {
        const changed = change(target);
        commit(
          counters.map((c) => (c.id === id ? changed : c)),
          [changed],
        );
        return undefined;
      } catch (error) {
        return message(error);
      }
    },
    [counters, commit],
  );

  function add() {
    if (!counters) return;
    try {
      const made = createCounter(newName.trim() || `Counter ${counters.length + 1}`, counters, randomId(), Date.now());
      commit([...counters, made], [made]);
      setSelected(made.id);
      // Out of the name field, onto the new counter: + ↑ 1… count again instead of typing into the name.
      focusCard.current = made.id;
      setNewName('');
      setProblem('');
    } catch (error) {
      setProblem(message(error));
    }
  }

  function confirmed() {
    if (!confirm || !counters) return;
    if (confirm.kind === 'reset') update(confirm.id, (c) => reset(c, Date.now()));
    else {
      setCounters(counters.filter((c) => c.id !== confirm.id));
      deleteCounter(confirm.id).catch(() => setStorageProblem('The counter could not be deleted from this browser’s storage.'));
    }
    setConfirm(null);
  }

  useEffect(() => {
    if (!focusCard.current) return;
    document.getElementById(cardId(focusCard.current))?.focus();
    focusCard.current = null;
  }, [counters]);

  // Keyboard shortcuts for the selected counter (not while typing in a field).
  const keys = useRef<(event: KeyboardEvent) => void>(() => undefined);
  useEffect(() => {
    keys.current = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target) || !current) return;
      const key = event.key;
      let handled = true;
      if (key === '+' || key === '=' || key === 'ArrowUp') setProblem(update(current.id, (c) => bump(c, 1, Date.now())) ?? '');
      else if (key === '-' || key === '_' || key === 'ArrowDown') setProblem(update(current.id, (c) => bump(c, -1, Date.now())) ?? '');
      else if (/^[1-9]$/.test(key) && list[Number(key) - 1]) setSelected(list[Number(key) - 1]!.id);
      else if (key === 'r' || key === 'R') setConfirm({ kind: 'reset', id: current.id });
      else if (key === 'n' || key === 'N') newField.current?.focus();
      else if (key === 'Escape') setConfirm(null);
      else handled = false;
      if (handled) event.preventDefault();
    };
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keys.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const total = list.reduce((sum, c) => sum + c.count, 0);
  const summary = list.length ? [...list.map((c) => `${c.label}: ${c.count}`), `Total: ${total}`].join('\n') : '';

  return (
    <>
      {storageProblem ? (
        <p className="notice notice-error" role="alert">
          {storageProblem}
        </p>
      ) : null}
      <form
        className="tool-settings"
        aria-label="Add a counter"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <label>
          New counter
          <input
            ref={newField}
            type="text"
            value={newName}
            maxLength={80}
            placeholder={`Counter ${list.length + 1}`}
            onChange={(e) => setNewName(e.target.value)}
            onKeyDown={(e) => {
              // Esc leaves the field (empty) for the selected counter, where the keys count again.
              if (e.key !== 'Escape') return;
              e.preventDefault();
              setNewName('');
              setProblem('');
              const card = current && document.getElementById(cardId(current.id));
              if (card) card.focus();
              else e.currentTarget.blur();
            }}
          />
        </label>
        <button type="submit" className="button button-small button-primary" disabled={counters === null}>
          Add counter
        </button>
        {problem ? (
          <span className="field-error" role="alert">
            {problem}
          </span>
        ) : null}
      </form>

      {counters === null ? (
        <p className="empty-state-text">Loading your counters…</p>
      ) : list.length === 0 ? (
        <p className="empty-state-text">No counters. Add one above: give it a name, or leave the name empty.</p>
      ) : (
        <div className="counter-grid">
          {list.map((counter, index) => (
            <CounterCard
              key={counter.id}
              counter={counter}
              index={index}
              total={list.length}
              selected={counter.id === current?.id}
              confirm={confirm}
              onSelect={() => setSelected(counter.id)}
              onBump={(times) => setProblem(update(counter.id, (c) => bump(c, times, Date.now())) ?? '')}
              onRename={(label) => update(counter.id, (c) => ({ ...c, label: checkLabel(label), modified: Date.now() }))}
              onStep={(step) => update(counter.id, (c) => ({ ...c, step: checkStep(step), modified: Date.now() }))}
              onAsk={(kind) => setConfirm(kind ? { kind, id: counter.id } : null)}
              onConfirm={confirmed}
              onMove={(to) => {
                const next = move(list, counter.id, to);
                commit(next, next);
              }}
            />
          ))}
        </div>
      )}

      <p className="keyboard-help">
        Keyboard: <kbd>+</kbd> or <kbd>↑</kbd> adds a step to the selected counter, <kbd>−</kbd> or <kbd>↓</kbd> takes one away,{' '}
        <kbd>1</kbd>–<kbd>9</kbd> select a counter, <kbd>R</kbd> resets, <kbd>N</kbd> names a new counter, <kbd>Esc</kbd> cancels.
      </p>

      <div className="tool-output">
        <TextPane
          id="output"
          label="Output"
          value={summary}
          readOnly
          rows={Math.min(10, Math.max(3, list.length + 1))}
          placeholder="The counts appear here"
          info={list.length ? `${list.length} counter${list.length === 1 ? '' : 's'} · total ${total.toLocaleString('en')}` : undefined}
          actions={
            <>
              <CopyButton text={summary} disabled={!summary} />
              <DownloadButton
                data={() => `${countersCsv(list)}\n`}
                filename="counters.csv"
                type="text/csv;charset=utf-8"
                label="Download CSV"
                disabled={!summary}
              />
            </>
          }
        />
      </div>

      <ToolAbout>
        <p>
          Tally counters for people at a door, laps, stitches, votes or anything else: as many as you like, each with its own name and step.
          They are kept in this browser&apos;s local database, so they are still there after a reload or a restart, and other open tabs stay
          in step. Nothing is sent anywhere.
        </p>
        <p>Reset and Delete ask first. Download CSV saves every counter for a spreadsheet.</p>
      </ToolAbout>
    </>
  );
}
