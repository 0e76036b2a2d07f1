import { database, loadHistory, randomId, type HistoryRecord } from '../storage/db';

/**
 * Local history (docs/web-app.md#tools-in-the-browser), kept only in this browser: the tools used recently (always,
 * one record per tool), and recent inputs, only when the user opts in (setting 'history.keepInputs').
 */
export const KEEP_INPUTS = 'history.keepInputs';
const MAX_INPUT_CHARS = 20_000;
const MAX_INPUTS_PER_TOOL = 20;

/** A named value in the local database's settings store (undefined when never saved). */
export async function getSetting(name: string): Promise<unknown> {
  const db = await database();
  return (await db.getFromIndex('settings', 'name', name))?.value;
}

export async function putSetting(name: string, value: unknown): Promise<void> {
  const db = await database();
  const now = Date.now();
  const existing = await db.getFromIndex('settings', 'name', name);
  await db.put('settings', { id: existing?.id ?? randomId(), name, value, created: existing?.created ?? now, modified: now });
}

export async function keepInputs(): Promise<boolean> {
  return (await getSetting(KEEP_INPUTS)) === true;
}

export async function setKeepInputs(value: boolean): Promise<void> {
  await putSetting(KEEP_INPUTS, value);
  if (!value) await clearHistory('input');
}

/** A tool was opened: its record moves to the top (lastvisited and modified now). */
export async function recordToolVisit(tool: { id: string; name: string; path: string }): Promise<void> {
  const db = await database();
  const id = `tool:${tool.id}`;
  const now = Date.now();
  const existing = await db.get('history', id);
  await db.put('history', {
    id,
    source: tool.id,
    type: 'tool',
    data: { name: tool.name, path: tool.path },
    created: now,
    modified: now,
    lastvisited: now,
    details: {
      visits: ((existing?.details?.visits as number | undefined) ?? 0) + 1,
      first: existing?.details?.first ?? existing?.created ?? now,
    },
  });
}

/** Keeps an input of a tool, only if the user opted in; the same input again just moves up. */
export async function recordToolInput(toolId: string, input: string, details: Record<string, unknown> = {}): Promise<void> {
  if (!input.trim() || input.length > MAX_INPUT_CHARS || !(await keepInputs())) return;
  const db = await database();
  const now = Date.now();
  const tx = db.transaction('history', 'readwrite');
  const mine = (await tx.store.index('source').getAll(toolId)).filter((r) => r.type === 'input');
  const same = mine.find((r) => r.data === input);
  await tx.store.put({
    id: same?.id ?? randomId(),
    source: toolId,
    type: 'input',
    data: input,
    created: now,
    modified: now,
    lastvisited: now,
    details,
  });
  const stale = mine
    .filter((r) => r !== same)
    .sort((a, b) => b.created - a.created)
    .slice(MAX_INPUTS_PER_TOOL - 1);
  await Promise.all([...stale.map((r) => tx.store.delete(r.id)), tx.done]);
}

export async function toolInputs(toolId: string): Promise<HistoryRecord[]> {
  const db = await database();
  return (await db.getAllFromIndex('history', 'source', toolId)).filter((r) => r.type === 'input').sort((a, b) => b.created - a.created);
}

export { loadHistory };

/** The most recently used tools (newest first), however many inputs and scans were kept since. */
export async function recentTools(limit: number): Promise<HistoryRecord[]> {
  const db = await database();
  const records: HistoryRecord[] = [];
  let cursor = await db.transaction('history').store.index('created').openCursor(null, 'prev');
  while (cursor && records.length < limit) {
    if (cursor.value.type === 'tool') records.push(cursor.value);
    cursor = await cursor.continue();
  }
  return records;
}

/** Clears the history: everything, or only the tool records or only the inputs. */
export async function clearHistory(type?: 'tool' | 'input'): Promise<void> {
  const db = await database();
  if (!type) return db.clear('history');
  const tx = db.transaction('history', 'readwrite');
  for (let cursor = await tx.store.openCursor(); cursor; cursor = await cursor.continue()) {
    if (cursor.value.type === type) await cursor.delete();
  }
  await tx.done;
}

/** Scans kept by a scanning tool: the newest MAX_SCANS, whatever the inputs opt-in (keeping them is the tool's job). */
const MAX_SCANS = 500;

export async function recordScan(toolId: string, data: Record<string, unknown>): Promise<HistoryRecord> {
  const db = await database();
  const now = Date.now();
  const record: HistoryRecord = { id: randomId(), source: toolId, type: 'scan', data, created: now, modified: now, lastvisited: now };
  const tx = db.transaction('history', 'readwrite');
  await tx.store.put(record);
  const stale = (await tx.store.index('source').getAll(toolId))
    .filter((r) => r.type === 'scan')
    .sort((a, b) => b.created - a.created)
    .slice(MAX_SCANS);
  await Promise.all([...stale.map((r) => tx.store.delete(r.id)), tx.done]);
  return record;
}

/** A tool's scans, newest first. */
export async function toolScans(toolId: string): Promise<HistoryRecord[]> {
  const db = await database();
  return (await db.getAllFromIndex('history', 'source', toolId)).filter((r) => r.type === 'scan').sort((a, b) => b.created - a.created);
}

/** Forgets one scan (id) or all of a tool's scans. */
export async function deleteScans(toolId: string, id?: string): Promise<void> {
  const db = await database();
  const tx = db.transaction('history', 'readwrite');
  const mine = (await tx.store.index('source').getAll(toolId)).filter((r) => r.type === 'scan' && (id === undefined || r.id === id));
  await Promise.all([...mine.map((r) => tx.store.delete(r.id)), tx.done]);
}
