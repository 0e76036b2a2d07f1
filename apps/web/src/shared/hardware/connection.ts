import { Beeper } from './beeper';

/**
 * The beeper of this tab: one connection for the whole app, so it survives moving between pages,
 * and any page may make it beep (the barcode scanner on each new code, a terminal when a share
 * arrives) when the person turned that on here.
 */
let connection: Beeper | null = null;

export function beeperConnection(): Beeper {
  connection ??= new Beeper();
  return connection;
}

export type BeepReason = 'scan' | 'share';

/** The localStorage keys of the settings ('true' when on; off by default). */
export const BEEPER_SETTING_KEYS: Record<BeepReason, string> = {
  scan: 'tinkerdesk.beeper.onScan',
  share: 'tinkerdesk.beeper.onShare',
};

const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Blocked storage (some privacy settings) throws on access.
    return null;
  }
}

export function beepSetting(reason: BeepReason): boolean {
  try {
    return storage()?.getItem(BEEPER_SETTING_KEYS[reason]) === 'true';
  } catch {
    return false;
  }
}

export function setBeepSetting(reason: BeepReason, on: boolean): void {
  try {
    storage()?.setItem(BEEPER_SETTING_KEYS[reason], on ? 'true' : 'false');
  } catch {
    // Full or blocked storage: the setting cannot be kept (the checkbox shows what is stored).
  }
  listeners.forEach((listener) => listener());
}

/** Calls `listener` when a setting changes, here or in another tab; returns the unsubscribe. */
export function watchBeepSettings(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || Object.values(BEEPER_SETTING_KEYS).includes(event.key)) listener();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

/**
 * A short beep on the connected beeper when the setting for `reason` is on; otherwise nothing.
 * Never throws: a failed write is already logged and emitted as the beeper's 'error' event.
 */
export async function beepIfEnabled(reason: BeepReason): Promise<boolean> {
  if (!beepSetting(reason) || !connection?.connected) return false;
  try {
    await connection.chirp();
    return true;
  } catch {
    return false;
  }
}
