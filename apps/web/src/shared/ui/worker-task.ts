/**
 * The message protocol of the tool workers: the page posts { id, input }; the worker answers with
 * progress messages ({ id, progress: 0..1 }), then one result ({ id, result }) or error ({ id, error }).
 * Large buffers travel as transferables, so nothing is copied.
 */
export type WorkerReply<T> =
  { id: number; progress: number } | { id: number; result: T } | { id: number; error: string; details?: Record<string, unknown> };

/** A task's failure: the worker's message, and the error's own fields (a position, say) as details. */
export class WorkerTaskError extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'WorkerTaskError';
  }
}

export interface TaskOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  transfer?: Transferable[];
  /**
   * Given, a worker that finished its task is handed back here instead of being terminated, so the
   * next task can reuse it (warm, its code already compiled). A cancelled or failed worker is terminated.
   */
  release?: (worker: Worker) => void;
}

let nextId = 1;

/** Runs one task in a worker from create(); the worker is terminated when the task ends (unless released) or is aborted. */
export function runWorkerTask<I, O>(create: () => Worker, input: I, options: TaskOptions = {}): Promise<O> {
  return new Promise<O>((resolve, reject) => {
    const worker = create();
    const id = nextId++;
    const finish = (healthy = false) => {
      options.signal?.removeEventListener('abort', abort);
      worker.onmessage = null;
      worker.onerror = null;
      if (healthy && options.release) options.release(worker);
      else worker.terminate();
    };
    const abort = () => {
      finish();
      reject(new DOMException('The task was cancelled', 'AbortError'));
    };
    if (options.signal?.aborted) return abort();
    options.signal?.addEventListener('abort', abort);
    worker.onmessage = (event: MessageEvent<WorkerReply<O>>) => {
      const reply = event.data;
      if (reply.id !== id) return;
      if ('progress' in reply) options.onProgress?.(reply.progress);
      else if ('result' in reply) {
        finish(true);
        resolve(reply.result);
      } else {
        finish();
        reject(new WorkerTaskError(reply.error, reply.details));
      }
    };
    worker.onerror = (event) => {
      finish();
      reject(new Error(event.message || 'the worker failed'));
    };
    worker.postMessage({ id, input }, options.transfer ?? []);
  });
}

/** Worker side: answers each { id, input } with work(input, report). */
export function serveWorkerTask<I, O>(
  work: (input: I, progress: (fraction: number) => void) => Promise<{ result: O; transfer?: Transferable[] }>,
): void {
  const scope = globalThis as unknown as {
    onmessage: ((event: MessageEvent<{ id: number; input: I }>) => void) | null;
    postMessage(message: unknown, transfer?: Transferable[]): void;
  };
  scope.onmessage = (event) => {
    const { id, input } = event.data;
    let last = 0;
    const progress = (fraction: number) => {
      const now = performance.now();
      if (now - last < 50 && fraction < 1) return;
      last = now;
      scope.postMessage({ id, progress: fraction });
    };
    work(input, progress).then(
      ({ result, transfer }) => scope.postMessage({ id, result }, transfer ?? []),
      (error: unknown) =>
        scope.postMessage(
          error instanceof Error ? { id, error: error.message, details: plainFields(error) } : { id, error: String(error) },
        ),
    );
  };
}

/** The own data fields of an error (numbers, strings, booleans), which can cross to the page. */
function plainFields(error: Error): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (['number', 'string', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return fields;
}
