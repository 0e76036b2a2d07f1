/**
 * The live events of this tab, for whoever wants them besides the query cache (the file converter
 * follows its jobs' progress here), and whether the stream is up now (pages that can also poll do so
 * only while it is down). Fed by useLiveEvents.
 */
import type { LiveEvent } from '@tinkerdesk/contracts/web';
import { useSyncExternalStore } from 'react';

type Listener = (event: LiveEvent) => void;

const listeners = new Set<Listener>();
const statusListeners = new Set<() => void>();
let connected = false;

export function onLiveEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitLiveEvent(event: LiveEvent): void {
  for (const listener of [...listeners]) listener(event);
}

export function setLiveConnected(value: boolean): void {
  if (connected === value) return;
  connected = value;
  for (const listener of [...statusListeners]) listener();
}

export const isLiveConnected = (): boolean => connected;

/** Whether the live stream is open now (re-renders when that changes). */
export function useLiveConnected(): boolean {
  return useSyncExternalStore(
    (listener) => {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    isLiveConnected,
    () => false,
  );
}
