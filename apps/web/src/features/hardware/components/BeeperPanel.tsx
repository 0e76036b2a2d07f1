import { useEffect, useId, useState } from 'react';
import { Coming } from '../../../shared/Coming';
import { BluetoothIcon } from '../../../shared/icons';
import type { BeeperEventMap, BeeperSnapshot } from '../../../shared/hardware/beeper';
import { beeperConnection } from '../../../shared/hardware/connection';
import { useBeepSetting, useBeeperState, useBluetoothSupport, type BluetoothSupport } from '../hooks/use-beeper';

function stateText({ state, deviceName }: BeeperSnapshot): string {
  if (state === 'connected') return `Connected to ${deviceName || 'the beeper'}`;
  if (state === 'connecting') return deviceName ? `Connecting to ${deviceName}…` : 'Connecting…';
  return 'Disconnected';
}

function SupportNotice({ support }: { support: BluetoothSupport }) {
  if (support === 'missing') {
    const secure = typeof window === 'undefined' || window.isSecureContext;
    return (
      <p className="notice notice-soon beeper-support">
        {secure
          ? 'This browser has no Web Bluetooth, so this page cannot reach a beeper. Open it in Chrome or Edge on a desktop computer or on Android (Safari and Firefox do not offer Web Bluetooth; on Linux, Chrome needs “Experimental Web Platform features” turned on in chrome://flags).'
          : 'Web Bluetooth works only on a secure (https) page: open this page over https in Chrome or Edge on a desktop computer or on Android.'}
      </p>
    );
  }
  if (support === 'unavailable') {
    return (
      <p className="notice notice-soon beeper-support">
        Bluetooth is off or missing on this device, or the browser may not use it. Switch Bluetooth on, then press Connect.
      </p>
    );
  }
  return null;
}

/** Connect, test and disconnect the beeper, and choose when other pages make it beep. */
export function BeeperPanel() {
  const beeper = beeperConnection();
  const current = useBeeperState();
  const support = useBluetoothSupport();
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const [onScan, setOnScan] = useBeepSetting('scan');
  const [onShare, setOnShare] = useBeepSetting('share');
  const titleId = useId();
  const shareHintId = useId();

  useEffect(() => {
    const onError = (event: BeeperEventMap['error']) => setError(event.detail.message || 'The beeper reported an error');
    const onConnected = () => {
      setError('');
      setNote('');
    };
    const onDisconnected = (event: BeeperEventMap['disconnected']) => {
      if (event.detail.reason === 'lost')
        setNote(
          `${event.detail.deviceName || 'The beeper'} disconnected: it may be out of range or switched off. Press Connect to connect again.`,
        );
    };
    beeper.addEventListener('error', onError);
    beeper.addEventListener('connected', onConnected);
    beeper.addEventListener('disconnected', onDisconnected);
    return () => {
      beeper.removeEventListener('error', onError);
      beeper.removeEventListener('connected', onConnected);
      beeper.removeEventListener('disconnected', onDisconnected);
    };
  }, [beeper]);

  const connecting = current.state === 'connecting';
  const connected = current.state === 'connected';

  // Errors reach the page as the beeper's 'error' events (above); the promises are only awaited here.
  function run(action: () => Promise<unknown>) {
    setError('');
    setNote('');
    action().catch(() => undefined);
  }

  return (
    <>
      <SupportNotice support={support} />
      <section className="card beeper-card" aria-labelledby={titleId}>
        <div className="beeper-head">
          <span className={`beeper-icon beeper-icon-${current.state}`}>
            <BluetoothIcon />
          </span>
          <div>
            <h2 id={titleId}>Beeper</h2>
            <p className="beeper-state" role="status">
              {stateText(current)}
            </p>
          </div>
        </div>
        <div className="actions beeper-actions">
          <button
            type="button"
            className={connected ? 'button' : 'button button-primary'}
            aria-disabled={connecting}
            onClick={() => !connecting && run(() => beeper.connect())}
          >
            Connect
          </button>
          <button type="button" className={connected ? 'button button-primary' : 'button'} onClick={() => run(() => beeper.beep())}>
            Beep
          </button>
          <button type="button" className="button" onClick={() => run(() => beeper.stop())}>
            Stop
          </button>
          <button
            type="button"
            className="button"
            aria-disabled={!connected && !connecting}
            onClick={() => {
              if (!connected && !connecting) return;
              setError('');
              beeper.disconnect();
            }}
          >
            Disconnect
          </button>
        </div>
        {error ? (
          <p className="notice notice-error beeper-error" role="alert">
            {error}
          </p>
        ) : null}
        {note ? <p className="muted beeper-note">{note}</p> : null}
        <fieldset className="fieldset beeper-settings">
          <legend>When other pages beep it</legend>
          <label className="checkbox">
            <input type="checkbox" checked={onScan} onChange={(e) => setOnScan(e.target.checked)} />
            Beep when the barcode scanner reads a code
          </label>
          <label className="checkbox">
            <input type="checkbox" checked={onShare} onChange={(e) => setOnShare(e.target.checked)} aria-describedby={shareHintId} />
            Beep when a share arrives
          </label>
          <small id={shareHintId} className="muted beeper-hint">
            <Coming what="terminals">Shares arrive in a browser registered as a terminal.</Coming>
          </small>
          <small className="muted beeper-hint">Kept in this browser. The connection lasts while this tab stays on the site.</small>
        </fieldset>
      </section>
    </>
  );
}
