import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { ConversionFailure } from './failure.js';

/**
 * PDF pages to PNG or JPEG with poppler's pdftoppm: a page range and a resolution, one image for one
 * page and a ZIP of them for several. Bounded before rendering: the page count (pdfinfo), the pages
 * asked for, and each page's pixel area at the asked resolution; rendering has a deadline (SIGKILL).
 */

export interface PdfPagesRequest {
  to: 'png' | 'jpg';
  /** First page (1-based); default 1. */
  firstPage?: number;
  /** Last page; default the last page of the document. */
  lastPage?: number;
  /** Dots per inch, 36–600; default 150. */
  dpi?: number;
  /** The output's base name ("report" gives report-1.png ... or report.zip). */
  baseName: string;
}

export interface PdfPagesBounds {
  maxPages: number;
  /** Pixels of one rendered page. */
  maxPagePixels: number;
  timeoutMs: number;
}

export const DEFAULT_PDF_BOUNDS: PdfPagesBounds = { maxPages: 200, maxPagePixels: 40_000_000, timeoutMs: 120_000 };

export interface PdfPagesResult {
  data: Buffer;
  filename: string;
  mediaType: string;
  pages: number;
}

interface PdfInfo {
  pages: number;
  /** Width and height of the largest page, in points (1/72 inch). */
  widthPt: number;
  heightPt: number;
}

function run(command: string, args: string[], timeoutMs: number): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(error, { stderr }));
      else resolve({ stdout, stderr });
    });
  });
}

function failureOf(error: unknown, timeoutMs: number): ConversionFailure {
  const { killed, stderr } = error as { killed?: boolean; stderr?: string };
  if (killed)
    return new ConversionFailure('timeout', `the PDF took longer than ${Math.round(timeoutMs / 1000)} s to render and was stopped`);
  if (/password/i.test(stderr ?? ''))
    return new ConversionFailure('password', 'the PDF is protected by a password; remove the password and try again');
  return new ConversionFailure('unreadable', 'the file could not be read as a PDF');
}

async function pdfInfo(file: string, timeoutMs: number): Promise<PdfInfo> {
  let stdout: string;
  try {
    // -l 100000: the size of every page, so the largest one bounds the rendering.
    ({ stdout } = await run('pdfinfo', ['-l', '100000', file], timeoutMs));
  } catch (error) {
    throw failureOf(error, timeoutMs);
  }
  const pages = Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1] ?? NaN);
  if (!Number.isInteger(pages) || pages < 1) throw new ConversionFailure('unreadable', 'the PDF has no pages');
  let widthPt = 0;
  let heightPt = 0;
  for (const match of stdout.matchAll(/size:\s+([\d.]+) x ([\d.]+) pts/g)) {
    widthPt = Math.max(widthPt, Number(match[1]));
    heightPt = Math.max(heightPt, Number(match[2]));
  }
  return { pages, widthPt, heightPt };
}

export async function renderPdfPages(
  input: Uint8Array,
  request: PdfPagesRequest,
  bounds: PdfPagesBounds = DEFAULT_PDF_BOUNDS,
): Promise<PdfPagesResult> {
  if (input.byteLength === 0) throw new ConversionFailure('unreadable', 'the file is empty');
  const dpi = request.dpi ?? 150;
  if (!Number.isInteger(dpi) || dpi < 36 || dpi > 600)
    throw new ConversionFailure('unsupported', 'dpi must be a whole number from 36 to 600');
  const dir = await mkdtemp(join(tmpdir(), 'tinkerdesk-pdf-'));
  try {
    const source = join(dir, 'input.pdf');
    await writeFile(source, input);
    const info = await pdfInfo(source, bounds.timeoutMs);
    const first = request.firstPage ?? 1;
    const last = request.lastPage ?? info.pages;
    if (Number.isInteger(first) && first > info.pages)
      throw new ConversionFailure('unsupported', `the PDF has ${info.pages} page${info.pages === 1 ? '' : 's'}; there is no page ${first}`);
    if (!Number.isInteger(first) || !Number.isInteger(last) || first < 1 || last < first) {
      throw new ConversionFailure('unsupported', 'the page range must run from a first page of 1 or more to a last page not before it');
    }
    const end = Math.min(last, info.pages);
    const count = end - first + 1;
    if (count > bounds.maxPages) {
      throw new ConversionFailure(
        'too-large',
        `${count} pages were asked for; at most ${bounds.maxPages} are rendered at once (choose a page range)`,
      );
    }
    const pixels = Math.ceil((info.widthPt / 72) * dpi) * Math.ceil((info.heightPt / 72) * dpi);
    if (pixels > bounds.maxPagePixels) {
      throw new ConversionFailure(
        'too-large',
        `a page at ${dpi} dpi would be ${Math.round(pixels / 1e6)} megapixels; choose a lower resolution`,
      );
    }
    const format = request.to === 'png' ? ['-png'] : ['-jpeg', '-jpegopt', 'quality=90'];
    try {
      await run(
        'pdftoppm',
        [...format, '-r', String(dpi), '-f', String(first), '-l', String(end), source, join(dir, 'page')],
        bounds.timeoutMs,
      );
    } catch (error) {
      throw failureOf(error, bounds.timeoutMs);
    }
    const extension = request.to === 'png' ? 'png' : 'jpg';
    // pdftoppm names pages page-1.png, page-01.png ... by the document's page count: sort by number.
    const files = (await readdir(dir))
      .filter((f) => f.startsWith('page-') && f.endsWith(`.${extension}`))
      .sort((a, b) => Number(/(\d+)\./.exec(a)?.[1]) - Number(/(\d+)\./.exec(b)?.[1]));
    if (files.length === 0) throw new ConversionFailure('unreadable', 'no page of the PDF could be rendered');
    const mediaType = request.to === 'png' ? 'image/png' : 'image/jpeg';
    if (files.length === 1) {
      return { data: await readFile(join(dir, files[0]!)), filename: `${request.baseName}-${first}.${extension}`, mediaType, pages: 1 };
    }
    const entries: Record<string, Uint8Array> = {};
    for (const [i, file] of files.entries()) entries[`${request.baseName}-${first + i}.${extension}`] = await readFile(join(dir, file));
    // Images are compressed already: store them.
    return {
      data: Buffer.from(zipSync(entries, { level: 0 })),
      filename: `${request.baseName}-pages-${first}-${end}.zip`,
      mediaType: 'application/zip',
      pages: files.length,
    };
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
