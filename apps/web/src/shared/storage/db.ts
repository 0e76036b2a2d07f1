import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/**
 * The local browser database (docs/web-app.md#session-and-local-database): IndexedDB named after the product, version 1.
 * - keyvalue: the session token and the terminal id and token (keys in KV_KEYS);
 * - history, settings, connections, domains: records with the fields of their types below.
 * Tool and terminal work builds on these stores; this module owns the schema.
 */
export const DB_NAME = 'Tinkerdesk';
export const DB_VERSION = 1;

export const KV_KEYS = { token: 'token', terminalId: 'terminalId', terminalToken: 'terminalToken' } as const;
export type KvKey = (typeof KV_KEYS)[keyof typeof KV_KEYS];

/** Local history record: a tool used or an input kept (newest first by created). */
export interface HistoryRecord {
  id: string;
  source: string;
  type: string;
  data: unknown;
  created: number;
  modified: number;
  lastvisited: number;
  details?: Record<string, unknown>;
}

export interface SettingRecord {
  id: string;
  name: string;
  value: unknown;
  created: number;
  modified: number;
}

export interface ConnectionRecord {
  id: string;
  guid: string;
  label: string;
  created: number;
  modified: number;
  details?: Record<string, unknown>;
}

export interface DomainRecord {
  id: string;
  name: string;
  domains: string[];
  trusted: boolean;
  created: number;
  modified: number;
  details?: Record<string, unknown>;
}

export interface TinkerdeskDb extends DBSchema {
  keyvalue: { key: string; value: unknown };
  history: { key: string; value: HistoryRecord; indexes: { created: number; source: string } };
  settings: { key: string; value: SettingRecord; indexes: { name: string } };
  connections: { key: string; value: ConnectionRecord; indexes: { guid: string } };
  domains: { key: string; value: DomainRecord; indexes: { name: string } };
}

let opening: Promise<IDBPDatabase<TinkerdeskDb>> | undefined;

/** Resolves once the page's load event has fired (at once outside a loading page). */
function pageLoaded(): Promise<void> {
  // Also compiled for the service worker (no DOM types there): the page's document through globalThis.
  const page = globalThis as { document?: { readyState: string }; addEventListener: typeof globalThis.addEventListener };
  if (!page.document || page.document.readyState === 'complete') return Promise.resolve();
  return new Promise((done) => page.addEventListener('load', () => done(), { once: true }));
}

/**
 * The database, opened once per page; rejects where IndexedDB is unavailable (private modes of some
 * browsers). It is opened after the page's load event: opening (and on a first visit creating) it
 * takes a few hundred milliseconds of a slow phone's start-up, which the first paint should not wait for.
 */
export function database(): Promise<IDBPDatabase<TinkerdeskDb>> {
  opening ??= pageLoaded()
    .then(() =>
      openDB<TinkerdeskDb>(DB_NAME, DB_VERSION, {
        upgrade(db) {
          db.createObjectStore('keyvalue');
          const history = db.createObjectStore('history', { keyPath: 'id' });
          history.createIndex('created', 'created');
          history.createIndex('source', 'source');
          db.createObjectStore('settings', { keyPath: 'id' }).createIndex('name', 'name', { unique: true });
          db.createObjectStore('connections', { keyPath: 'id' }).createIndex('guid', 'guid');
          db.createObjectStore('domains', { keyPath: 'id' }).createIndex('name', 'name');
        },
        blocking() {
          // A newer version opened in another tab: let it upgrade.
          void opening?.then((db) => db.close());
          opening = undefined;
        },
      }),
    )
    .catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
  return opening;
}

export async function kvGet<T>(key: KvKey): Promise<T | undefined> {
  return (await (await database()).get('keyvalue', key)) as T | undefined;
}

export async function kvSet(key: KvKey, value: unknown): Promise<void> {
  await (await database()).put('keyvalue', value, key);
}

export async function kvDelete(key: KvKey): Promise<void> {
  await (await database()).delete('keyvalue', key);
}

/** Messages the storage acts on (docs/web-app.md#session-and-local-database): 'login' saves the token, 'logout' deletes it, 'terminal' saves id and token. */
export type StorageMessage =
  { type: 'login'; token: string } | { type: 'logout' } | { type: 'terminal'; terminalId: string; terminalToken: string };

export async function handleStorageMessage(message: StorageMessage): Promise<void> {
  switch (message.type) {
    case 'login':
      return kvSet(KV_KEYS.token, message.token);
    case 'logout':
      return kvDelete(KV_KEYS.token);
    case 'terminal': {
      const db = await database();
      const tx = db.transaction('keyvalue', 'readwrite');
      await Promise.all([
        tx.store.put(message.terminalId, KV_KEYS.terminalId),
        tx.store.put(message.terminalToken, KV_KEYS.terminalToken),
        tx.done,
      ]);
      return;
    }
  }
}

/** Random ids of 16 characters, from the browser's CSPRNG, without modulo bias. */
export function randomId(length = 16): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let id = '';
  while (id.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && id.length < length) id += alphabet[byte % 62];
    }
  }
  return id;
}

/** History, newest first by created, paged by offset and limit (20 by default). */
export async function loadHistory(offset = 0, limit = 20): Promise<HistoryRecord[]> {
  const db = await database();
  const records: HistoryRecord[] = [];
  let cursor = await db.transaction('history').store.index('created').openCursor(null, 'prev');
  if (cursor && offset > 0) cursor = await cursor.advance(offset);
  while (cursor && records.length < limit) {
    records.push(cursor.value);
    cursor = await cursor.continue();
  }
  return records;
}
