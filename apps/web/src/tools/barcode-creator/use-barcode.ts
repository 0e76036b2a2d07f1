import { useEffect, useMemo } from 'react';
import { useConversion } from '../../shared/ui/use-conversion';
import { jobKey, type RenderJob, type RenderResult } from './render-job';

const createWorker = () => new Worker(new URL('./barcode.worker.ts', import.meta.url), { type: 'module' });
const notOnPage = (): RenderResult => {
  throw new Error('Barcodes are drawn in the worker');
};

/**
 * Draws a barcode in the worker (a pause in typing first); the PNG as an object URL for the preview.
 * busy stays true until the drawing matches the job on screen, so a download never gives the previous data.
 */
export function useBarcode(job: RenderJob | null): { result?: RenderResult; error?: string; url?: string; busy: boolean } {
  const { result, busy } = useConversion(job, true, notOnPage, createWorker);
  const drawn = job ? result?.value : undefined;
  const key = useMemo(() => (job ? jobKey(job) : ''), [job]);
  const stale = drawn !== undefined && drawn.key !== key;
  const url = useMemo(() => (drawn ? URL.createObjectURL(drawn.png) : undefined), [drawn]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return { result: drawn, error: job ? result?.error?.message : undefined, url, busy: busy || stale };
}
