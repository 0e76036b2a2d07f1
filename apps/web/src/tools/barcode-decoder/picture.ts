import { cleanSvg, svgMarkup } from '@tinkerdesk/tools/svg';
import { rasterize } from '../../shared/ui/svg-raster';

/** The longer side an SVG is drawn at for decoding: enough pixels per module for dense codes. */
const SVG_LONG_SIDE = 1600;

/** Whether a file is SVG markup (by type, by name, or by its first bytes when the type is missing). */
async function isSvg(file: File): Promise<boolean> {
  if (file.type === 'image/svg+xml' || /\.svgz?$/i.test(file.name)) return true;
  if (file.type && file.type !== 'application/octet-stream' && file.type !== 'text/xml' && file.type !== 'application/xml') return false;
  const head = await file.slice(0, 512).text();
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?<(svg:)?svg[\s>]/i.test(head);
}

/**
 * The picture to decode: a raster image as it is; an SVG (such as the barcode creator's Download SVG)
 * cleaned of scripts and external references like the SVG tool does, then drawn through an <img> on
 * an opaque white background (ZXing needs one) at a size with enough pixels per bar.
 */
export async function decodablePicture(file: File): Promise<Blob> {
  if (!(await isSvg(file))) return file;
  const text = await file.text();
  const svg = cleanSvg(text);
  const scale = Math.min(16, Math.max(1, SVG_LONG_SIDE / Math.max(svg.width, svg.height)));
  const width = Math.max(1, Math.round(svg.width * scale));
  const height = Math.max(1, Math.round(svg.height * scale));
  return rasterize({
    markup: svgMarkup(svg, width, height),
    source: text,
    width,
    height,
    type: 'image/png',
    quality: 1,
    background: '#ffffff',
  });
}
