import { useEffect } from 'react';
import { recordToolInput } from './history';

/** Keeps the tool's input in the local history a second after typing stops (only when the user opted in). */
export function useInputHistory(toolId: string, input: string, details?: Record<string, unknown>): void {
  const key = JSON.stringify(details ?? {});
  useEffect(() => {
    const timer = setTimeout(() => {
      recordToolInput(toolId, input, JSON.parse(key) as Record<string, unknown>).catch(() => undefined);
    }, 1000);
    return () => clearTimeout(timer);
  }, [toolId, input, key]);
}
