/**
 * For component tests (jsdom has no IndexedDB): the exports of `./db` over in-memory maps, to pass to
 * `jest.unstable_mockModule('<path to>/shared/storage/db', () => fake.module)` before the app's
 * modules load. `kv` holds the key-value store (session and terminal tokens), `settings` the settings
 * store by name. Never imported by the app.
 */
import type { KvKey, SettingRecord, StorageMessage } from './db';

export function fakeDb() {
  const kv = new Map<KvKey, unknown>();
  const settings = new Map<string, SettingRecord>();
  const database = {
    getFromIndex: (store: string, _index: string, name: string) => Promise.resolve(store === 'settings' ? settings.get(name) : undefined),
    put: (store: string, record: SettingRecord) => Promise.resolve(void (store === 'settings' && settings.set(record.name, record))),
  };
  let ids = 0;
  const module = {
    DB_NAME: 'Tinkerdesk',
    DB_VERSION: 1,
    KV_KEYS: { token: 'token', terminalId: 'terminalId', terminalToken: 'terminalToken' } as const,
    database: () => Promise.resolve(database),
    kvGet: (key: KvKey) => Promise.resolve(kv.get(key)),
    kvSet: (key: KvKey, value: unknown) => Promise.resolve(void kv.set(key, value)),
    kvDelete: (key: KvKey) => Promise.resolve(void kv.delete(key)),
    handleStorageMessage: (message: StorageMessage) => {
      if (message.type === 'login') kv.set('token', message.token);
      if (message.type === 'logout') kv.delete('token');
      if (message.type === 'terminal') kv.set('terminalId', message.terminalId).set('terminalToken', message.terminalToken);
      return Promise.resolve();
    },
    randomId: () => `id-${(ids++).toString(36).padStart(14, '0')}`,
    loadHistory: () => Promise.resolve([]),
  };
  return { kv, settings, module };
}
