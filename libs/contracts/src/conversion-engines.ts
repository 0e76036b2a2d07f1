/**
 * The engines the conversion workers convert with, which format needs which, and what the platform can
 * convert given the engines its live workers announced (GET /v1/convert/formats, /v1/health, the
 * converter page, and the admission of every job). Browser-safe.
 */
import { SOURCE_FORMATS, type FormatKind, type SourceFormat } from './conversion-formats.js';

export const CONVERSION_ENGINES = ['images', 'libreoffice', 'pdf-pages', 'chromium'] as const;
export type ConversionEngine = (typeof CONVERSION_ENGINES)[number];

/** What each engine is, for messages and pages. */
export const ENGINE_LABELS: Readonly<Record<ConversionEngine, string>> = {
  images: 'libvips (images)',
  libreoffice: 'LibreOffice with its UNO bridge and sandbox (documents, spreadsheets, presentations)',
  'pdf-pages': "poppler's pdftoppm (PDF pages to images)",
  chromium: 'Chromium (web pages to PDF or PNG)',
};

const ENGINE_OF_KIND: Readonly<Record<FormatKind, ConversionEngine>> = {
  image: 'images',
  document: 'libreoffice',
  spreadsheet: 'libreoffice',
  presentation: 'libreoffice',
  pdf: 'pdf-pages',
  web: 'chromium',
};

/** The engine that converts a source format. */
export function engineOf(format: Pick<SourceFormat, 'kind'>): ConversionEngine {
  return ENGINE_OF_KIND[format.kind];
}

export function isConversionEngine(value: unknown): value is ConversionEngine {
  return typeof value === 'string' && (CONVERSION_ENGINES as readonly string[]).includes(value);
}

/** The engines of the live workers: how many workers, which engines some of them have, which none has. */
export interface EngineStatus {
  workers: number;
  available: ConversionEngine[];
  missing: ConversionEngine[];
}

/**
 * The status from the engines each live worker announced (one list per worker). With no live worker at
 * all nothing is known to be missing (a worker being restarted or deployed): jobs wait in the queue for
 * the next one, as they always did, and `workers` 0 says so.
 */
export function engineStatus(announced: readonly (readonly ConversionEngine[])[]): EngineStatus {
  if (announced.length === 0) return { workers: 0, available: [], missing: [] };
  const have = new Set(announced.flat());
  return {
    workers: announced.length,
    available: CONVERSION_ENGINES.filter((e) => have.has(e)),
    missing: CONVERSION_ENGINES.filter((e) => !have.has(e)),
  };
}

/** The source formats whose engine is not missing (all of them while no worker is live). */
export function formatsWithEngines(
  status: Pick<EngineStatus, 'missing'>,
  formats: readonly SourceFormat[] = SOURCE_FORMATS,
): SourceFormat[] {
  return formats.filter((f) => !status.missing.includes(engineOf(f)));
}

/** A job's error when its engine is gone (the worker that took it lacks it, or no live worker has it). */
export function engineMissingReason(engine: ConversionEngine): string {
  return `the engine this conversion needs is not available on the server: ${ENGINE_LABELS[engine]} (engine ${engine})`;
}

/** Undefined when a job from `format` can run; otherwise the detail of its 503 ENGINE_UNAVAILABLE. */
export function engineProblem(status: Pick<EngineStatus, 'missing'>, format: SourceFormat): string | undefined {
  const engine = engineOf(format);
  if (!status.missing.includes(engine)) return undefined;
  return `no running conversion worker has ${ENGINE_LABELS[engine]} (engine ${engine}), so ${format.label} (${format.id}) cannot be converted now`;
}
