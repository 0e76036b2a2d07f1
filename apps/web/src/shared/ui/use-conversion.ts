import { useEffect, useMemo, useState } from 'react';
import { useAsyncValue } from './use-async-value';
import { useWorkerTask } from './use-worker-task';

export type Conversion<O> = { value: O; error?: undefined } | { value?: undefined; error: Error };

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * A live conversion of text-like input: small inputs are converted at once on the page; large ones
 * (large = true) in a worker made by createWorker, which runs the same convert function, so typing in
 * a megabyte of text never freezes the page. A newer input supersedes the conversion still running.
 * Pass a memoised input (null for none) and a stable convert function.
 */
export function useConversion<I, O>(
  input: I | null,
  large: boolean,
  convert: (input: I) => O,
  createWorker: () => Worker,
): { result: Conversion<O> | undefined; busy: boolean; progress: number; cancel: () => void } {
  const task = useWorkerTask<I, O>(createWorker, { keepAlive: true });
  const { run } = task;
  // Typing in a large document: convert once the keys pause, not at every keystroke.
  const settled = useSettled(large ? input : null, 150);
  const direct = useMemo((): Conversion<O> | undefined => {
    if (input === null || large) return undefined;
    try {
      return { value: convert(input) };
    } catch (error) {
      return { error: asError(error) };
    }
  }, [input, large, convert]);
  const compute = useMemo(
    () =>
      settled !== null && large
        ? () =>
            run(settled).then(
              (value): Conversion<O> | undefined => (value === undefined ? undefined : { value }),
              (error: unknown): Conversion<O> => ({ error: asError(error) }),
            )
        : null,
    [settled, large, run],
  );
  const inWorker = useAsyncValue(compute);
  return { result: large ? inWorker : direct, busy: task.busy, progress: task.progress, cancel: task.cancel };
}

/** The value once it has stayed the same for delay ms (the first value at once). */
function useSettled<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), settled === null ? 0 : delay);
    return () => clearTimeout(timer);
  }, [value, delay, settled]);
  return settled;
}
