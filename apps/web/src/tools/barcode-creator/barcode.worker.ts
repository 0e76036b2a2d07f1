/// <reference lib="webworker" />
import { barcodeErrorMessage } from '@tinkerdesk/tools/barcode';
import { toCanvas, toSVG, type RenderOptions } from 'bwip-js/browser';
import { serveWorkerTask } from '../../shared/ui/worker-task';
import { jobKey, type RenderJob, type RenderResult } from './render-job';

/**
 * bwip-js (about 2 MB of generated code) lives only here: the page stays light and a long symbol never
 * blocks typing. One job gives the SVG and the PNG (drawn on an OffscreenCanvas) of the same symbol.
 */
function options(job: RenderJob): RenderOptions {
  const color = (hex: string) => hex.replace(/^#/, '').toUpperCase();
  const opts: Record<string, unknown> = {
    ...job.extra,
    bcid: job.bcid,
    text: job.text,
    scale: job.scale,
    paddingwidth: job.margin,
    paddingheight: job.margin,
    barcolor: color(job.barColor),
    backgroundcolor: color(job.backgroundColor),
    includetext: job.includeText,
  };
  if (job.height !== undefined) opts.height = job.height;
  if (job.ecLevel) opts.eclevel = job.ecLevel;
  if (job.includeText) opts.textcolor = color(job.barColor);
  return opts as unknown as RenderOptions;
}

serveWorkerTask<RenderJob, RenderResult>(async (job) => {
  try {
    const opts = options(job);
    const canvas = new OffscreenCanvas(1, 1);
    toCanvas(canvas, opts);
    const png = await canvas.convertToBlob({ type: 'image/png' });
    const svg = toSVG(opts);
    return { result: { key: jobKey(job), svg, png, width: canvas.width, height: canvas.height } };
  } catch (error) {
    throw new Error(barcodeErrorMessage(error, job.text), { cause: error });
  }
});
