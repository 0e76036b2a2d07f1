/**
 * The app shell's live stream (docs/web-app.md "Live updates"): one per signed-in tab, opened when a
 * session has a token and closed when it goes (sign-out, another account). Each event is handed to
 * `react` (the app invalidates the queries it affects, so open pages refetch and update themselves)
 * and to the live bus. A broken stream is opened again after a growing wait (1 s doubling to 30 s,
 * reset once it is up) with the last event's id, so the gateway replays what was missed; a refused
 * token stops it (the session's own checks take over).
 */
import type { LiveEvent } from '@tinkerdesk/contracts/web';
import { useEffect, useRef } from 'react';
import { ApiError } from '../api';
import { emitLiveEvent, setLiveConnected } from './live-bus';
import { readLiveStream } from './live-stream';

const FIRST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 30_000;

/** The wait before the next try: doubled per failure, at most LONGEST_WAIT_MS, with a little jitter. */
export function nextWait(failures: number, random = Math.random): number {
  const base = Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export function useLiveEvents(token: string | null, react: (event: LiveEvent) => void): void {
  const reactRef = useRef(react);
  useEffect(() => {
    reactRef.current = react;
  }, [react]);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const connection = {
      lastEventId: '',
      signal: controller.signal,
      onOpen: () => {
        failures = 0;
        setLiveConnected(true);
      },
      onEvent: (event: LiveEvent) => {
        reactRef.current(event);
        emitLiveEvent(event);
      },
    };
    const run = () => {
      readLiveStream(connection).then(
        () => retry(),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          // The token is no longer good: the session store finds out and signs out; no retry.
          if (error instanceof ApiError && error.status === 401) return setLiveConnected(false);
          retry();
        },
      );
    };
    const retry = () => {
      setLiveConnected(false);
      if (controller.signal.aborted) return;
      failures += 1;
      timer = setTimeout(run, nextWait(failures));
    };
    run();
    return () => {
      controller.abort();
      clearTimeout(timer);
      setLiveConnected(false);
    };
  }, [token]);
}
