/// <reference lib="webworker" />
import { bytesToHex, type FoundCode } from '@tinkerdesk/tools/barcode-read';
import { prepareZXingModule, readBarcodes, type ReadResult } from 'zxing-wasm/reader';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import { serveWorkerTask } from '../../shared/ui/worker-task';
import { MAX_PIXELS, type DecodeJob, type DecodeResult } from './decode-job';

// ZXing-C++ as WebAssembly, loaded from this site (the .wasm is part of the build and precached for
// offline use; nothing is fetched from a CDN). One worker serves the decoder's images and the scanner's frames.
prepareZXingModule({ overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) } });

function found(result: ReadResult): FoundCode {
  const p = result.position;
  const textual = ['Text', 'GS1', 'ISO15434', 'UnknownECI'].includes(result.contentType);
  return {
    format: result.format,
    text: result.text,
    bytesHex:
      result.bytes.length > 0 && !(textual && new TextDecoder().decode(result.bytes) === result.text) ? bytesToHex(result.bytes) : '',
    corners: [p.topLeft, p.topRight, p.bottomRight, p.bottomLeft].map(({ x, y }): [number, number] => [x, y]),
    ecLevel: result.ecLevel,
    symbologyIdentifier: result.symbologyIdentifier,
    orientation: result.orientation,
  };
}

/** The image's pixels: the browser's decoders (PNG, JPEG, WebP, AVIF, GIF, BMP, ICO) on an OffscreenCanvas. */
async function pixels(image: Blob): Promise<ImageData> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(image);
  } catch (error) {
    throw new Error('This file is not an image the browser can read. Use a PNG, JPEG, WebP, GIF, BMP or SVG picture.', { cause: error });
  }
  try {
    if (bitmap.width * bitmap.height > MAX_PIXELS) {
      throw new Error(`This image is ${bitmap.width} × ${bitmap.height} pixels; images up to 64 megapixels can be decoded.`);
    }
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('This browser cannot read image pixels in a worker.');
    context.drawImage(bitmap, 0, 0);
    return context.getImageData(0, 0, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}

serveWorkerTask<DecodeJob, DecodeResult>(async (job) => {
  const data = job.frame ?? (job.image ? await pixels(job.image) : undefined);
  if (!data) throw new Error('Nothing to decode');
  const results = await readBarcodes(data, {
    formats: [],
    tryHarder: job.tryHarder,
    tryRotate: job.tryHarder,
    tryInvert: job.tryHarder,
    tryDownscale: true,
    maxNumberOfSymbols: 255,
    eanAddOnSymbol: 'Read',
  });
  const codes = results.filter((r) => r.isValid).map(found);
  return { result: { width: data.width, height: data.height, codes } };
});
