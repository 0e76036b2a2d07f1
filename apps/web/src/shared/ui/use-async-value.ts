import { useEffect, useState } from 'react';

/**
 * The value of an async computation, for the computation given now: pass a memoised function (useMemo
 * or useCallback with its inputs), or null for none. Until it resolves, and after a failure, the answer
 * is undefined; an answer for an older computation is never returned.
 */
export function useAsyncValue<T>(compute: (() => Promise<T>) | null): T | undefined {
  const [state, setState] = useState<{ source: () => Promise<T>; value: T } | null>(null);
  useEffect(() => {
    if (!compute) return;
    let live = true;
    compute().then(
      (value) => {
        if (live) setState({ source: compute, value });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [compute]);
  return state !== null && state.source === compute ? state.value : undefined;
}
