import { bump, checkLabel, checkStep, CounterError, createCounter, move, reset, sorted, type Counter } from '@tinkerdesk/tools/counters';
import { useCallback, useEffect, useState } from 'react';
import { randomId } from '../../shared/storage/db';
import { deleteCounter, loadCounters, onOtherTabChange, saveCounters } from './counter-store';

/** A Reset or Delete waiting for its answer, on one counter. */
export type Confirm = { kind: 'reset' | 'delete'; id: string } | null;

const STORAGE_REFUSED = 'This browser does not let the page keep data (a private window?): the counters work, but are gone when you leave.';

function message(error: unknown): string {
  return error instanceof CounterError ? error.message : 'Something went wrong';
}

const starter = () => createCounter('Counter 1', [], randomId(), Date.now());

/**
 * The counters of the page and what is done to them: loaded from this browser's database (a first
 * "Counter 1" when there are none), followed in other tabs, each change on the page at once and saved
 * after it. Bumping, renaming, stepping, moving; Reset and Delete wait for a confirmation. A refused
 * change comes back as its text (the card's or the page's problem).
 */
export function useCounters() {
  const [counters, setCounters] = useState<Counter[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [problem, setProblem] = useState('');
  const [storageProblem, setStorageProblem] = useState('');
  const list = counters ? sorted(counters) : [];
  const current = list.find((c) => c.id === selected) ?? list[0];

  const reload = useCallback(
    (first: boolean) =>
      loadCounters().then(
        (loaded) => {
          if (first && loaded.length === 0) {
            const made = starter();
            setCounters([made]);
            saveCounters([made]).catch(() => undefined);
          } else setCounters(loaded);
        },
        () => {
          setStorageProblem(STORAGE_REFUSED);
          setCounters((now) => now ?? [starter()]);
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
      const target = counters?.find((c) => c.id === id);
      if (!counters || !target) return undefined;
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

  /** Adds a counter (its name, or "Counter n"); returns the new one, or undefined when refused (the problem says why). */
  function add(name: string): Counter | undefined {
    if (!counters) return undefined;
    try {
      const made = createCounter(name.trim() || `Counter ${counters.length + 1}`, counters, randomId(), Date.now());
      commit([...counters, made], [made]);
      setSelected(made.id);
      setProblem('');
      return made;
    } catch (error) {
      setProblem(message(error));
      return undefined;
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

  return {
    /** null while loading. */
    counters,
    /** In their order. */
    list,
    /** The selected counter (the first when none is chosen). */
    current,
    total: list.reduce((sum, c) => sum + c.count, 0),
    confirm,
    problem,
    storageProblem,
    select: setSelected,
    setProblem,
    add,
    bump: (id: string, times: number) => setProblem(update(id, (c) => bump(c, times, Date.now())) ?? ''),
    rename: (id: string, label: string) => update(id, (c) => ({ ...c, label: checkLabel(label), modified: Date.now() })),
    setStep: (id: string, step: number) => update(id, (c) => ({ ...c, step: checkStep(step), modified: Date.now() })),
    ask: (kind: 'reset' | 'delete' | null, id: string) => setConfirm(kind ? { kind, id } : null),
    cancel: () => setConfirm(null),
    confirmed,
    moveTo: (id: string, to: number) => {
      const next = move(list, id, to);
      commit(next, next);
    },
  };
}

export type CountersState = ReturnType<typeof useCounters>;
