import { csvCell } from './csv.js';

// What the barcode decoder and scanner show of a code ZXing-C++ (zxing-wasm) read: its format as people
// name it, its raw bytes, and whether its text is a link that can be opened.

/** A code found in an image, as the decoding worker hands it to the page. */
export interface FoundCode {
  /** ZXing's format name (QRCode, EAN13, DataMatrix, ...). */
  format: string;
  text: string;
  /** The raw bytes in hexadecimal, for the symbologies that carry bytes (2D codes, Code 128...). */
  bytesHex: string;
  /** Corners in image pixels: top-left, top-right, bottom-right, bottom-left. */
  corners: Array<[number, number]>;
  /** Error-correction level where the symbology has one (QR: L, M, Q, H). */
  ecLevel: string;
  /** The AIM symbology identifier (]Q1, ]E0, ...). */
  symbologyIdentifier: string;
  /** Rotation of the code in degrees. */
  orientation: number;
}

const LABELS: Record<string, string> = {
  QRCode: 'QR Code',
  MicroQRCode: 'Micro QR Code',
  RMQRCode: 'rMQR Code',
  DataMatrix: 'Data Matrix',
  Aztec: 'Aztec',
  AztecCode: 'Aztec',
  AztecRune: 'Aztec Rune',
  PDF417: 'PDF417',
  CompactPDF417: 'Compact PDF417',
  MicroPDF417: 'MicroPDF417',
  MaxiCode: 'MaxiCode',
  Code128: 'Code 128',
  Code39: 'Code 39',
  Code39Std: 'Code 39',
  Code39Ext: 'Code 39 Extended',
  Code32: 'Code 32 (Italian Pharmacode)',
  PZN: 'PZN',
  Code93: 'Code 93',
  Codabar: 'Codabar',
  ITF: 'ITF (Interleaved 2 of 5)',
  ITF14: 'ITF-14',
  EAN13: 'EAN-13',
  EAN8: 'EAN-8',
  EAN5: 'EAN-5',
  EAN2: 'EAN-2',
  ISBN: 'ISBN',
  UPCA: 'UPC-A',
  UPCE: 'UPC-E',
  DataBar: 'GS1 DataBar',
  DataBarOmni: 'GS1 DataBar Omnidirectional',
  DataBarStk: 'GS1 DataBar Stacked',
  DataBarStkOmni: 'GS1 DataBar Stacked Omnidirectional',
  DataBarLtd: 'GS1 DataBar Limited',
  DataBarExp: 'GS1 DataBar Expanded',
  DataBarExpStk: 'GS1 DataBar Expanded Stacked',
  Telepen: 'Telepen',
  TelepenAlpha: 'Telepen',
  TelepenNumeric: 'Telepen Numeric',
  DXFilmEdge: 'DX Film Edge',
};

/** The name people know a ZXing format by: QRCode → "QR Code", DataBarLtd → "GS1 DataBar Limited". */
export function formatLabel(format: string): string {
  return LABELS[format] ?? format.replace(/([a-z])([A-Z0-9])/g, '$1 $2');
}

/** Bytes as spaced hexadecimal pairs: "48 65 6c". */
export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}

/**
 * The web address a code's text is, when it is one that may be opened from the page: http and https
 * only (never javascript:, data: or file:), and a bare "www." host gets https://. Otherwise undefined.
 */
export function linkOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (/\s/.test(trimmed)) return undefined;
  const candidate = /^www\.[^/]+\.[a-z]{2,}/i.test(trimmed) ? `https://${trimmed}` : trimmed;
  if (!/^https?:\/\//i.test(candidate)) return undefined;
  try {
    const url = new URL(candidate);
    return url.hostname ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The found codes as CSV (time when given, format, text, bytes), every cell formula-safe. */
export function codesToCsv(codes: ReadonlyArray<Pick<FoundCode, 'format' | 'text' | 'bytesHex'>>, times?: readonly string[]): string {
  const head = times ? 'time,format,text,bytes' : 'format,text,bytes';
  const rows = codes.map((c, i) => [...(times ? [times[i] ?? ''] : []), formatLabel(c.format), c.text, c.bytesHex].map(csvCell).join(','));
  return [head, ...rows].join('\r\n') + '\r\n';
}
