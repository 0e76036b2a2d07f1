import { useEffect, useRef, useState } from 'react';
import { useWorkerTask } from '../../shared/ui/use-worker-task';
import { WorkerTaskError } from '../../shared/ui/worker-task';
import { runBase64Job, type Base64Job, type DecodeResult, type EncodeResult } from './base64-jobs';

/** Text up to this many characters is done on the page (instant, as you type); more goes to the worker. */
const ON_PAGE_CHARS = 256 * 1024;
/** Large pastes wait for typing to pause before the worker starts. */
const WORKER_DELAY_MS = 200;

export interface JobError {
  message: string;
  /** Where in the input the problem is (UTF-16 index), when the error says. */
  index?: number;
}

function jobError(error: unknown): JobError {
  const fields = error instanceof WorkerTaskError ? error.details : (error as Record<string, unknown>);
  const index = typeof fields?.['index'] === 'number' ? fields['index'] : undefined;
  return { message: error instanceof Error ? error.message : String(error), index };
}

/**
 * Runs the page's current Base64 job (null: nothing to do; pass a memoised job) and gives its result
 * or error. A newer job replaces an older one, whose answer is then ignored. Each finished job leaves a
 * performance measure named base64-encode or base64-decode (read by bench/base64-browser.mjs).
 */
export function useBase64Job<R extends EncodeResult | DecodeResult>(job: Base64Job | null) {
  const task = useWorkerTask<Base64Job, R>(() => new Worker(new URL('./base64.worker.ts', import.meta.url), { type: 'module' }));
  const [state, setState] = useState<{ job: Base64Job; result: R | null; error: JobError | null } | null>(null);
  const sequence = useRef(0);
  const { run, cancel } = task;

  useEffect(() => {
    const n = ++sequence.current;
    if (!job) {
      cancel();
      return;
    }
    const onPage = typeof job.source === 'string' && job.source.length <= ON_PAGE_CHARS;
    const started = performance.now();
    const settle = (promise: Promise<R | undefined>) =>
      promise.then(
        (result) => {
          if (n !== sequence.current || result === undefined) return;
          performance.measure(`base64-${job.op}`, { start: started, end: performance.now() });
          setState({ job, result, error: null });
        },
        (error: unknown) => {
          if (n === sequence.current) setState({ job, result: null, error: jobError(error) });
        },
      );
    if (onPage) {
      cancel();
      void settle(runBase64Job(job, () => undefined) as Promise<R>);
      return;
    }
    const timer = setTimeout(() => void settle(run(job)), job.source instanceof Blob ? 0 : WORKER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [job, run, cancel]);

  // Only the answer to the current job counts: an older one is not shown while the new one runs.
  const current = state !== null && state.job === job ? state : null;
  return { result: current?.result ?? null, error: current?.error ?? null, busy: task.busy, progress: task.progress, cancel };
}
