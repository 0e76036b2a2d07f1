import { getDocument, GlobalWorkerOptions, InvalidPDFException, PasswordResponses, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { fitsCanvas, MAX_CANVAS_PIXELS, MAX_CANVAS_SIDE } from '../../shared/ui/canvas-limits';

// pdf.js parses the PDF, decodes its fonts and images in its own Web Worker (from this site); the page
// draws the result on a canvas, one page at a time. Its data files are served from /pdfjs/ (see
// vite.config.ts), so nothing comes from a CDN and the tool works offline.
GlobalWorkerOptions.workerSrc = workerUrl;

export type PasswordAsk = (reason: 'need' | 'wrong') => Promise<string | null>;

export class PdfOpenError extends Error {
  override name = 'PdfOpenError';
}

/** Opens a PDF; asks for the password when it has one (null from ask means the user gave up). */
export async function openPdf(data: Uint8Array, ask: PasswordAsk): Promise<PDFDocumentProxy> {
  const task = getDocument({
    data,
    cMapUrl: '/pdfjs/cmaps/',
    cMapPacked: true,
    standardFontDataUrl: '/pdfjs/standard_fonts/',
    wasmUrl: '/pdfjs/wasm/',
    iccUrl: '/pdfjs/iccs/',
    disableWorkerRendering: true,
    stopAtErrors: false,
  });
  let cancelled = false;
  task.onPassword = (update: (password: string) => void, reason: number) => {
    void ask(reason === PasswordResponses.INCORRECT_PASSWORD ? 'wrong' : 'need').then((password) => {
      if (password === null) {
        cancelled = true;
        void task.destroy();
      } else update(password);
    });
  };
  try {
    return await task.promise;
  } catch (error) {
    if (cancelled) throw new PdfOpenError('The PDF was not opened: it needs its password.', { cause: error });
    if (error instanceof InvalidPDFException || (error instanceof Error && error.name === 'InvalidPDFException')) {
      throw new PdfOpenError('This file is not a PDF or it is damaged beyond repair.', { cause: error });
    }
    throw new PdfOpenError(`This PDF could not be opened: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

export interface RenderedPage {
  page: number;
  blob: Blob;
  width: number;
  height: number;
}

/** One page drawn at dpi on white paper (as printers and pdftoppm do) and encoded as PNG or JPEG. */
export async function renderPage(
  doc: PDFDocumentProxy,
  pageNumber: number,
  dpi: number,
  type: 'image/png' | 'image/jpeg',
  quality: number,
): Promise<RenderedPage> {
  const page = await doc.getPage(pageNumber);
  try {
    const viewport = page.getViewport({ scale: dpi / 72 });
    const width = Math.max(1, Math.round(viewport.width));
    const height = Math.max(1, Math.round(viewport.height));
    if (!fitsCanvas(width, height)) {
      const most = Math.floor(dpi * Math.min(MAX_CANVAS_SIDE / Math.max(width, height), Math.sqrt(MAX_CANVAS_PIXELS / (width * height))));
      throw new Error(
        `Page ${pageNumber} at ${dpi} DPI would be ${width} × ${height} pixels, more than a browser can draw. Use ${most} DPI or less.`,
      );
    }
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    await page.render({ canvas, viewport, background: '#ffffff' }).promise;
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, quality));
    canvas.width = 0;
    canvas.height = 0;
    if (!blob) throw new Error(`Page ${pageNumber} could not be encoded.`);
    return { page: pageNumber, blob, width, height };
  } finally {
    page.cleanup();
  }
}
