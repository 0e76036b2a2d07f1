import type { FoundCode } from '@tinkerdesk/tools/barcode-read';

/** An image file (decoder) or a camera frame (scanner) for the decoding worker. */
export interface DecodeJob {
  image?: Blob;
  frame?: ImageData;
  /** Slower search that finds small, damaged, rotated or inverted codes. */
  tryHarder: boolean;
}

export interface DecodeResult {
  width: number;
  height: number;
  codes: FoundCode[];
}

/** Images larger than this many pixels are not decoded (a phone photo is about 12 megapixels). */
export const MAX_PIXELS = 64_000_000;
