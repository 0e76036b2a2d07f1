/** Conversion's answers and constants, browser-safe (no Nest, no class-validator). */

/** Every target format id a job may ask for (`jpeg` is read as `jpg`). */
export const CONVERSION_TARGETS = [
  'png',
  'jpg',
  'jpeg',
  'webp',
  'avif',
  'tiff',
  'gif',
  'pdf',
  'docx',
  'odt',
  'txt',
  'xlsx',
  'ods',
  'csv',
  'pptx',
  'odp',
] as const;

export type ConversionTarget = (typeof CONVERSION_TARGETS)[number];

export function isConversionTarget(value: string): value is ConversionTarget {
  return (CONVERSION_TARGETS as readonly string[]).includes(value);
}

/**
 * queued → active → completed | failed; cancelled when its owner stops it; expired when its result's
 * time is up (the files are gone).
 */
export const JOB_STATES = ['queued', 'active', 'completed', 'failed', 'cancelled', 'expired'] as const;

export type JobState = (typeof JOB_STATES)[number];

/** Options of a conversion; each applies to the kinds of source it names. */
export interface ConversionOptions {
  /** Images: fit inside this box (never enlarged). */
  width?: number;
  height?: number;
  /** Images to JPEG, WebP, AVIF: 1–100. */
  quality?: number;
  /** Images: colour behind what was transparent (JPEG always has one: white). */
  background?: string;
  /** PDF to images: page range (1-based) and resolution. */
  firstPage?: number;
  lastPage?: number;
  dpi?: number;
}

export interface ConversionJobView {
  id: string;
  state: JobState;
  /** 0–100. */
  progress: number;
  /** Source format id (`docx`, `png`, `url`...); for a URL job whose format is found on fetching, `auto`. */
  from: string;
  to: string;
  /** The uploaded file's name, or the URL. */
  source: { kind: 'upload'; filename: string; size: number } | { kind: 'url'; url: string };
  options: ConversionOptions;
  /** Present once completed. */
  output?: { filename: string; mediaType: string; size: number };
  error?: string;
  created: string;
  modified: string;
  /** When the result and its files go away. */
  expires: string;
}

/** conversion.job.finished: a job reached a final state (a gateway answers whoever waits for it). */
export interface JobFinishedEvent {
  id: string;
  state: JobState;
  /**
   * The job as recorded when it finished (its worker knows it): a gateway answers whoever waits for
   * it without reading it again. Absent when the worker did not have it (a job given up after its
   * attempts ran out).
   */
  job?: ConversionJobView;
}

/** GET /v1/convert/jobs: the caller's jobs, newest first. */
export interface ConversionJobList {
  jobs: ConversionJobView[];
  total: number;
  offset: number;
  limit: number;
}

/**
 * POST /v1/users/{guid}/fetch: a URL's content fetched by the server for the browser tools (no CORS
 * in the way). `content` is the body in base64 (any kind of file); `url` is where it came from after
 * redirects.
 */
export interface FetchedContentView {
  success: true;
  url: string;
  contentType: string;
  filename: string;
  size: number;
  content: string;
}
