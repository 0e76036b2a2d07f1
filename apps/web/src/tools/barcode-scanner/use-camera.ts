import type { FoundCode } from '@tinkerdesk/tools/barcode-read';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DecodeResult } from '../barcode-decoder/decode-job';
import { useDecoder } from '../barcode-decoder/use-decoder';
import { cameraErrorMessage, hasTorch, setTorch } from './camera';

/** Frames are scaled down to this many pixels on the long side before decoding: fast, and enough for codes that fill a fair part of the view. */
const FRAME_SIZE = 1280;
const PAUSE_MS = 60;

export type CameraState = 'off' | 'starting' | 'on';

/**
 * The camera of the scanner: off, starting, on. Started (the back camera, or the one chosen), its frames
 * are decoded one after another in the decoder's worker; what each frame shows is `live`, and the codes
 * found go to `onCodes`. Stopping, choosing another camera or leaving the page ends the loop (each start
 * has its token, so an overtaken one stops). The torch where the camera has one.
 */
export function useCamera(onCodes: (codes: FoundCode[]) => void) {
  const [camera, setCamera] = useState<CameraState>('off');
  const [error, setError] = useState('');
  const [cameras, setCameras] = useState<MediaDeviceInfo[]>([]);
  const [cameraId, setCameraId] = useState('');
  const [torch, setTorchState] = useState<{ available: boolean; on: boolean }>({ available: false, on: false });
  const [live, setLive] = useState<DecodeResult | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const loop = useRef(0);
  const { run } = useDecoder();

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
            onCodes(result.codes);
          }
        }
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      }
    },
    [run, onCodes],
  );

  const start = useCallback(
    async (deviceId?: string) => {
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

  return { video, camera, error, cameras, cameraId, setCameraId, torch, live, start, stop, toggleTorch };
}
