import { useCallback, useEffect, useRef, useState } from 'react';
import { runWorkerTask } from './worker-task';

export interface WorkerTaskState {
  busy: boolean;
  /** 0..1 while busy. */
  progress: number;
  /** Stops the running task (its promise rejects with an AbortError). */
  cancel: () => void;
}

/**
 * Runs tasks in a worker made by create(); a new task cancels the one still running, and leaving the
 * page cancels everything. run() resolves with the result, or with undefined when it was superseded or
 * cancelled (so callers never show a stale result). With keepAlive, a worker that finished is kept for
 * the next task (no start-up, compiled code stays warm); a cancelled one is terminated as always.
 */
export function useWorkerTask<I, O>(
  create: () => Worker,
  { keepAlive = false }: { keepAlive?: boolean } = {},
): WorkerTaskState & { run: (input: I, transfer?: Transferable[]) => Promise<O | undefined> } {
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState(0);
  const current = useRef<AbortController | undefined>(undefined);
  const factory = useRef(create);
  const idle = useRef<Worker | undefined>(undefined);

  const cancel = useCallback(() => {
    current.current?.abort();
    current.current = undefined;
    setBusy(false);
  }, []);
  useEffect(
    () => () => {
      cancel();
      idle.current?.terminate();
      idle.current = undefined;
    },
    [cancel],
  );

  const run = useCallback(
    async (input: I, transfer?: Transferable[]): Promise<O | undefined> => {
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      setBusy(true);
      setProgress(0);
      try {
        const take = () => {
          const worker = idle.current ?? factory.current();
          idle.current = undefined;
          return worker;
        };
        const release = keepAlive
          ? (worker: Worker) => {
              if (idle.current) worker.terminate();
              else idle.current = worker;
            }
          : undefined;
        return await runWorkerTask<I, O>(take, input, { signal: controller.signal, transfer, onProgress: setProgress, release });
      } catch (error) {
        if (controller.signal.aborted) return undefined;
        throw error;
      } finally {
        if (current.current === controller) {
          current.current = undefined;
          setBusy(false);
        }
      }
    },
    [keepAlive],
  );

  return { busy, progress, cancel, run };
}
