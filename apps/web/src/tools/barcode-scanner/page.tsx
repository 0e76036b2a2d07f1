import { codesToCsv, type FoundCode } from '@tinkerdesk/tools/barcode-read';
import { useCallback, useEffect, useRef, useState } from 'react';
import { beepIfEnabled } from '../../shared/hardware/connection';
import { session } from '../../shared/session/session';
import type { HistoryRecord } from '../../shared/storage/db';
import { CodeCard } from '../barcode-decoder/CodeCard';
import type { DecodeResult } from '../barcode-decoder/decode-job';
import { useDecoder } from '../barcode-decoder/use-decoder';
import { DownloadButton } from '../../shared/ui/actions';
import { deleteScans, recordScan, toolScans } from '../../shared/ui/history';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import type { ToolPageProps } from '../types';
import { cameraErrorMessage, cameraLabel, hasTorch, setTorch } from './camera';
import { ScanFeedback } from './feedback';

const SETTINGS = { beep: setting.flag(true), vibrate: setting.flag(true) };
/** Frames are scaled down to this many pixels on the long side before decoding: fast, and enough for codes that fill a fair part of the view. */
const FRAME_SIZE = 1280;
/** The same code seen again within this time is the same scan, not a new one. */
const REPEAT_MS = 3000;
const PAUSE_MS = 60;

type CameraState = 'off' | 'starting' | 'on';
type Scan = HistoryRecord & { data: Pick<FoundCode, 'format' | 'text' | 'bytesHex'> };

const time = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });

function asCode(scan: Scan): FoundCode {
  return { ...scan.data, corners: [], ecLevel: '', symbologyIdentifier: '', orientation: 0 };
}

export default function BarcodeScannerPage({ tool }: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const [camera, setCamera] = useState<CameraState>('off');
  const [error, setError] = useState('');
  const [cameras, setCameras] = useState<MediaDeviceInfo[]>([]);
  const [cameraId, setCameraId] = useState('');
  const [torch, setTorchState] = useState<{ available: boolean; on: boolean }>({ available: false, on: false });
  const [live, setLive] = useState<DecodeResult | null>(null);
  const [scans, setScans] = useState<Scan[] | null>(null);
  const [last, setLast] = useState<FoundCode | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const loop = useRef(0);
  const seen = useRef(new Map<string, number>());
  const feedback = useRef<ScanFeedback | null>(null);
  const options = useRef(settings);
  const { run } = useDecoder();

  useEffect(() => {
    options.current = settings;
  }, [settings]);

  useEffect(() => {
    let alive = true;
    toolScans(tool.id).then(
      (records) => alive && setScans(records as Scan[]),
      () => alive && setScans([]),
    );
    return () => {
      alive = false;
    };
  }, [tool.id]);

  const found = useCallback(
    (codes: FoundCode[]) => {
      const now = Date.now();
      for (const code of codes) {
        const key = `${code.format}\u0000${code.text}`;
        const before = seen.current.get(key);
        seen.current.set(key, now);
        if (before !== undefined && now - before < REPEAT_MS) continue;
        if (options.current.beep) feedback.current?.beep();
        if (options.current.vibrate) feedback.current?.vibrate();
        void beepIfEnabled('scan');
        setLast(code);
        void recordScan(tool.id, { format: code.format, text: code.text, bytesHex: code.bytesHex }).then((record) =>
          setScans((list) => [record as Scan, ...(list ?? [])]),
        );
      }
    },
    [tool.id],
  );

  const stop = useCallback(() => {
    loop.current++;
    stream.current?.getTracks().forEach((t) => t.stop());
    stream.current = null;
    if (video.current) video.current.srcObject = null;
    setLive(null);
    setTorchState({ available: false, on: false });
    setCamera('off');
  }, []);

  const scan = useCallback(
    async (token: number) => {
      const canvas = document.createElement('canvas');
      const context = canvas.getContext('2d', { willReadFrequently: true });
      while (loop.current === token && context) {
        const v = video.current;
        if (v && v.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && v.videoWidth > 0) {
          const scale = Math.min(1, FRAME_SIZE / Math.max(v.videoWidth, v.videoHeight));
          canvas.width = Math.round(v.videoWidth * scale);
          canvas.height = Math.round(v.videoHeight * scale);
          context.drawImage(v, 0, 0, canvas.width, canvas.height);
          const frame = context.getImageData(0, 0, canvas.width, canvas.height);
          let result: DecodeResult | undefined;
          try {
            result = await run({ frame, tryHarder: false }, [frame.data.buffer]);
          } catch {
            result = undefined;
          }
          if (loop.current !== token) break;
          if (result) {
            setLive(result);
            found(result.codes);
          }
        }
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      }
    },
    [run, found],
  );

  const start = useCallback(
    async (deviceId?: string) => {
      feedback.current ??= new ScanFeedback();
      feedback.current.unlock();
      const token = ++loop.current;
      stream.current?.getTracks().forEach((t) => t.stop());
      setError('');
      setCamera('starting');
      try {
        if (!navigator.mediaDevices?.getUserMedia)
          throw new Error('this browser gives no camera access here (it needs a secure https page)');
        const media = await navigator.mediaDevices.getUserMedia({
          audio: false,
          video: deviceId
            ? { deviceId: { exact: deviceId }, width: { ideal: 1920 }, height: { ideal: 1080 } }
            : { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } },
        });
        if (loop.current !== token) {
          media.getTracks().forEach((t) => t.stop());
          return;
        }
        stream.current = media;
        const track = media.getVideoTracks()[0];
        if (video.current) {
          video.current.srcObject = media;
          await video.current.play();
        }
        setCameras((await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput'));
        setCameraId(track?.getSettings().deviceId ?? '');
        setTorchState({ available: track ? hasTorch(track) : false, on: false });
        setCamera('on');
        void scan(token);
      } catch (failure) {
        if (loop.current !== token) return;
        stream.current?.getTracks().forEach((t) => t.stop());
        stream.current = null;
        setCamera('off');
        setError(cameraErrorMessage(failure));
      }
    },
    [scan],
  );

  useEffect(
    () => () => {
      loop.current++;
      stream.current?.getTracks().forEach((t) => t.stop());
      feedback.current?.close();
    },
    [],
  );

  async function toggleTorch() {
    const track = stream.current?.getVideoTracks()[0];
    if (!track) return;
    try {
      await setTorch(track, !torch.on);
      setTorchState({ available: true, on: !torch.on });
    } catch {
      setTorchState({ available: false, on: false });
    }
  }

  async function clearScans() {
    const answer = await session.prompt({
      tag: 'clear-scans',
      title: 'Clear the scanned codes?',
      content: 'This forgets every code in the list, in this browser. It cannot be undone.',
      buttons: [
        { title: 'Cancel', value: 'cancel' },
        { title: 'Clear list', value: 'clear', primary: true },
      ],
    });
    if (answer !== 'clear') return;
    await deleteScans(tool.id);
    seen.current.clear();
    setScans([]);
  }

  async function removeScan(id: string) {
    await deleteScans(tool.id, id);
    setScans((list) => (list ?? []).filter((s) => s.id !== id));
  }

  const list = scans ?? [];
  return (
    <>
      <div className="tool-form scanner-controls" role="group" aria-label="Camera">
        {camera === 'off' ? (
          <button type="button" className="button button-primary" onClick={() => void start(cameraId || undefined)}>
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
                void start(e.target.value);
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
            {camera === 'on' ? (last ? `Scanned: ${last.text}` : 'Scanning…') : ''}
          </p>
        </section>
        <section className="decoder-results" aria-label="Scanned codes">
          <div className="text-pane-head">
            <h2 className="pane-title">Scanned codes{list.length > 0 ? ` (${list.length})` : ''}</h2>
            <div className="text-pane-actions">
              <DownloadButton
                data={() =>
                  codesToCsv(
                    list.map((s) => s.data),
                    list.map((s) => new Date(s.created).toISOString()),
                  )
                }
                filename="scanned-codes.csv"
                type="text/csv;charset=utf-8"
                label="Download CSV"
                disabled={list.length === 0}
              />
              <button type="button" className="button button-small" onClick={() => void clearScans()} disabled={list.length === 0}>
                Clear list
              </button>
            </div>
          </div>
          {scans !== null && list.length === 0 ? (
            <p className="empty-state-text">No codes scanned yet. Each new code is added here, newest first, and kept in this browser.</p>
          ) : (
            <ol className="code-list">
              {list.map((s) => (
                <CodeCard
                  key={s.id}
                  code={asCode(s)}
                  meta={
                    <>
                      <time className="code-meta" dateTime={new Date(s.created).toISOString()}>
                        {time.format(s.created)}
                      </time>
                      <button type="button" className="link-button code-meta" onClick={() => void removeScan(s.id)}>
                        Remove
                      </button>
                    </>
                  }
                />
              ))}
            </ol>
          )}
        </section>
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
