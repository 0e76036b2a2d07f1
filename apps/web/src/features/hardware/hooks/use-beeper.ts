import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { webBluetooth, type BeeperSnapshot } from '../../../shared/hardware/beeper';
import { beepSetting, beeperConnection, setBeepSetting, watchBeepSettings, type BeepReason } from '../../../shared/hardware/connection';

function subscribeState(onChange: () => void): () => void {
  const beeper = beeperConnection();
  beeper.addEventListener('state', onChange);
  return () => beeper.removeEventListener('state', onChange);
}

const snapshot = (): BeeperSnapshot => beeperConnection().snapshot;

/** The app's beeper connection as React state (it outlives the page: see connection.ts). */
export function useBeeperState(): BeeperSnapshot {
  return useSyncExternalStore(subscribeState, snapshot, snapshot);
}

export type BluetoothSupport = 'checking' | 'missing' | 'unavailable' | 'available';

/**
 * Whether this browser can reach a beeper: `missing` without Web Bluetooth at all; `unavailable`
 * with it but no adapter it may use (getAvailability() false); followed as the adapter comes and goes.
 */
export function useBluetoothSupport(): BluetoothSupport {
  const [support, setSupport] = useState<BluetoothSupport>(() => (webBluetooth() ? 'checking' : 'missing'));
  useEffect(() => {
    const bluetooth = webBluetooth();
    if (!bluetooth) return;
    let alive = true;
    const check = () =>
      void beeperConnection()
        .available()
        .then((ok) => alive && setSupport(ok ? 'available' : 'unavailable'));
    check();
    const target = bluetooth as Partial<EventTarget>;
    target.addEventListener?.('availabilitychanged', check);
    return () => {
      alive = false;
      target.removeEventListener?.('availabilitychanged', check);
    };
  }, []);
  return support;
}

/** One of the beep settings (kept in localStorage) and its setter. */
export function useBeepSetting(reason: BeepReason): [boolean, (on: boolean) => void] {
  const value = useSyncExternalStore(
    watchBeepSettings,
    () => beepSetting(reason),
    () => false,
  );
  const set = useCallback((on: boolean) => setBeepSetting(reason, on), [reason]);
  return [value, set];
}
