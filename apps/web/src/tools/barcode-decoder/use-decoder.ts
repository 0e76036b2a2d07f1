import { useWorkerTask } from '../../shared/ui/use-worker-task';
import type { DecodeJob, DecodeResult } from './decode-job';

const createWorker = () => new Worker(new URL('./decode.worker.ts', import.meta.url), { type: 'module' });

/** The ZXing decoding worker (kept warm between images and frames); run() resolves undefined when superseded. */
export function useDecoder() {
  return useWorkerTask<DecodeJob, DecodeResult>(createWorker, { keepAlive: true });
}
