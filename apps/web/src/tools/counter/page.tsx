import { countersCsv } from '@tinkerdesk/tools/counters';
import { useEffect, useRef, useState } from 'react';
import { CopyButton, DownloadButton } from '../../shared/ui/actions';
import { TextPane } from '../../shared/ui/TextPane';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import type { ToolPageProps } from '../types';
import { cardId, CounterCard } from './CounterCard';
import { useCounters } from './use-counters';

/** Keys typed into these are theirs, not shortcuts. */
function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

export default function CounterPage(_props: ToolPageProps) {
  const state = useCounters();
  const { counters, list, current, total } = state;
  const [newName, setNewName] = useState('');
  const newField = useRef<HTMLInputElement>(null);
  /** The counter whose card takes the focus once it is on the page (after adding, or Esc in the name field). */
  const focusCard = useRef<string | null>(null);

  function add() {
    const made = state.add(newName);
    if (!made) return;
    // Out of the name field, onto the new counter: + ↑ 1… count again instead of typing into the name.
    focusCard.current = made.id;
    setNewName('');
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
      if (key === '+' || key === '=' || key === 'ArrowUp') state.bump(current.id, 1);
      else if (key === '-' || key === '_' || key === 'ArrowDown') state.bump(current.id, -1);
      else if (/^[1-9]$/.test(key) && list[Number(key) - 1]) state.select(list[Number(key) - 1]!.id);
      else if (key === 'r' || key === 'R') state.ask('reset', current.id);
      else if (key === 'n' || key === 'N') newField.current?.focus();
      else if (key === 'Escape') state.cancel();
      else handled = false;
      if (handled) event.preventDefault();
    };
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keys.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const summary = list.length ? [...list.map((c) => `${c.label}: ${c.count}`), `Total: ${total}`].join('\n') : '';

  return (
    <>
      {state.storageProblem ? (
        <p className="notice notice-error" role="alert">
          {state.storageProblem}
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
              state.setProblem('');
              const card = current && document.getElementById(cardId(current.id));
              if (card) card.focus();
              else e.currentTarget.blur();
            }}
          />
        </label>
        <button type="submit" className="button button-small button-primary" disabled={state.counters === null}>
          Add counter
        </button>
        {state.problem ? (
          <span className="field-error" role="alert">
            {state.problem}
          </span>
        ) : null}
      </form>

      {state.counters === null ? (
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
              confirm={state.confirm}
              onSelect={() => state.select(counter.id)}
              onBump={(times) => state.bump(counter.id, times)}
              onRename={(label) => state.rename(counter.id, label)}
              onStep={(step) => state.setStep(counter.id, step)}
              onAsk={(kind) => state.ask(kind, counter.id)}
              onConfirm={state.confirmed}
              onMove={(to) => state.moveTo(counter.id, to)}
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
