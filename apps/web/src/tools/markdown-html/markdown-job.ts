import { markdownToHtml, type MarkdownOptions } from '@tinkerdesk/tools/markdown';
import { readTextFile } from '../../shared/ui/read-text-file';

export interface MarkdownJob {
  /** The Markdown, or a large file of it (read in the worker, so the page never holds it in a field). */
  source: string | File;
  options: Required<MarkdownOptions>;
}

export interface MarkdownResult {
  html: string;
  /** How long the conversion itself took, in milliseconds (shown, and read by bench/markdown-browser.mjs). */
  ms: number;
}

function timed(markdown: string, options: Required<MarkdownOptions>): MarkdownResult {
  const start = performance.now();
  const html = markdownToHtml(markdown, options);
  return { html, ms: performance.now() - start };
}

/** On the page, for text below the worker threshold. */
export function convertMarkdownText(job: MarkdownJob): MarkdownResult {
  if (typeof job.source !== 'string') throw new Error('Files are converted in the worker');
  return timed(job.source, job.options);
}

/** In the worker: text or a file. */
export async function convertMarkdown(job: MarkdownJob): Promise<MarkdownResult> {
  return timed(typeof job.source === 'string' ? job.source : await readTextFile(job.source), job.options);
}

/** Text from this size (UTF-16 code units), and files from this size (bytes), are converted in a worker. */
export const WORKER_THRESHOLD = 200_000;
