import type { Counter } from '@tinkerdesk/tools/counters';
import { database } from '../../shared/storage/db';

/**
 * Counters live in the local database's settings store (docs/web-app.md#session-and-local-database: id, name, value, created,
 * modified), one record per counter named "counter:<id>", so they survive reloads and are kept apart
 * from the history (which the user may clear). Other open tabs hear of changes on a BroadcastChannel.
 */
const PREFIX = 'counter:';
const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel('tinkerdesk-counters');

export async function loadCounters(): Promise<Counter[]> {
  const db = await database();
  const records = await db.getAll('settings');
  return records.filter((r) => r.name.startsWith(PREFIX)).map((r) => r.value as Counter);
}

export async function saveCounters(counters: readonly Counter[]): Promise<void> {
  const db = await database();
  const tx = db.transaction('settings', 'readwrite');
  await Promise.all([
    ...counters.map((c) => tx.store.put({ id: c.id, name: `${PREFIX}${c.id}`, value: c, created: c.created, modified: c.modified })),
    tx.done,
  ]);
  channel?.postMessage('changed');
}

export async function deleteCounter(id: string): Promise<void> {
  const db = await database();
  await db.delete('settings', id);
  channel?.postMessage('changed');
}

/** Calls back when another tab changed the counters; returns the way to stop listening. */
export function onOtherTabChange(callback: () => void): () => void {
  if (!channel) return () => undefined;
  const listener = () => callback();
  channel.addEventListener('message', listener);
  return () => channel.removeEventListener('message', listener);
}
