import { ToolAbout } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import type { ToolPageProps } from '../types';
import { cameraLabel } from './camera';
import { ScanList } from './ScanList';
import { useCamera } from './use-camera';
import { useScans } from './use-scans';

const SETTINGS = { beep: setting.flag(true), vibrate: setting.flag(true) };

export default function BarcodeScannerPage({ tool }: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const scans = useScans(tool.id, settings);
  const {
    video,
    camera,
    error,
    cameras,
    cameraId,
    setCameraId,
    torch,
    live,
    stop,
    toggleTorch,
    start: startCamera,
  } = useCamera(scans.found);

  /** Starts the camera (the beep readied in the same click). */
  function start(deviceId?: string) {
    scans.unlockFeedback();
    void startCamera(deviceId);
  }

  return (
    <>
      <div className="tool-form scanner-controls" role="group" aria-label="Camera">
        {camera === 'off' ? (
          <button type="button" className="button button-primary" onClick={() => start(cameraId || undefined)}>
            Start camera
          </button>
        ) : (
          <button type="button" className="button" onClick={stop} disabled={camera === 'starting'}>
            Stop camera
          </button>
        )}
        {cameras.length > 0 ? (
          <label className="field">
            <span>Camera</span>
            <select
              value={cameraId}
              onChange={(e) => {
                setCameraId(e.target.value);
                start(e.target.value);
              }}
            >
              {cameras.map((d, i) => (
                <option key={d.deviceId || i} value={d.deviceId}>
                  {cameraLabel(d, i)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {torch.available ? (
          <button type="button" className="button" aria-pressed={torch.on} onClick={() => void toggleTorch()}>
            {torch.on ? 'Torch off' : 'Torch on'}
          </button>
        ) : null}
        <label className="checkbox-label">
          <input type="checkbox" checked={settings.beep} onChange={(e) => update({ beep: e.target.checked })} />
          Beep
        </label>
        <label className="checkbox-label">
          <input type="checkbox" checked={settings.vibrate} onChange={(e) => update({ vibrate: e.target.checked })} />
          Vibrate
        </label>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="decoder-layout">
        <section aria-label="Viewfinder">
          <div className={camera === 'on' ? 'decoder-stage scanner-stage on' : 'decoder-stage scanner-stage'}>
            <video ref={video} muted playsInline aria-label="Camera view" />
            {camera !== 'on' ? (
              <p className="scanner-placeholder">
                {camera === 'starting'
                  ? 'Starting the camera…'
                  : 'Press Start camera and point it at a barcode. The video stays on this device.'}
              </p>
            ) : null}
            {live && camera === 'on' ? (
              <svg
                className="decoder-overlay"
                viewBox={`0 0 ${live.width} ${live.height}`}
                preserveAspectRatio="xMidYMid meet"
                aria-hidden="true"
              >
                {live.codes.map((code, i) => (
                  <polygon key={i} points={code.corners.map((p) => p.join(',')).join(' ')} vectorEffect="non-scaling-stroke" />
                ))}
              </svg>
            ) : null}
          </div>
          <p className="scanner-status" role="status">
            {camera === 'on' ? (scans.last ? `Scanned: ${scans.last.text}` : 'Scanning…') : ''}
          </p>
        </section>
        <ScanList scans={scans.scans} onClear={() => void scans.clear()} onRemove={(id) => void scans.remove(id)} />
      </div>
      <ToolAbout>
        <p>
          Scans QR codes, Data Matrix, Aztec, PDF417, EAN and UPC, Code 128, Code 39, ITF, GS1 DataBar and the other symbologies of
          ZXing-C++ with your camera, continuously: each new code beeps, vibrates (on phones) and goes to the top of the list, where it can
          be copied or, for a web address, opened. The same code held in view counts once.
        </p>
        <p>
          Frames are decoded in a background worker on this device; no picture is uploaded. Choose the camera (the back camera is used on
          phones), and turn on the torch in dim light where the phone offers it. The list is kept in this browser until you clear it.
        </p>
      </ToolAbout>
    </>
  );
}
