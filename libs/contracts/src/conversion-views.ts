/** Conversion's answers and constants, browser-safe (no Nest, no class-validator). */

/** Output formats the conversion workers produce from images (sharp). */
export const IMAGE_TARGETS = ['png', 'jpg', 'jpeg', 'webp', 'avif', 'tiff', 'gif'] as const;

export type ImageTarget = (typeof IMAGE_TARGETS)[number];

export const JOB_STATES = ['queued', 'active', 'completed', 'failed'] as const;

export type JobState = (typeof JOB_STATES)[number];

export interface ConversionJobView {
  id: string;
  state: JobState;
  progress: number;
  filename: string;
  to: string;
  inputSize: number;
  /** Present once completed. */
  output?: { filename: string; mediaType: string; size: number; width?: number; height?: number };
  error?: string;
  created: string;
  modified: string;
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
