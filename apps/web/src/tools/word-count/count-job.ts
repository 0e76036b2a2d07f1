import { countText, ENGLISH_STOP_WORDS, type TextStats } from '@tinkerdesk/tools/word-count';
import { readTextFile } from '../../shared/ui/read-text-file';

export interface CountJob {
  source: string | File;
  locale?: string;
  ignoreCommon: boolean;
  top: number;
}

function count(text: string, job: CountJob, onProgress?: (fraction: number) => void): TextStats {
  return countText(text, { locale: job.locale, top: job.top, ignore: job.ignoreCommon ? ENGLISH_STOP_WORDS : undefined, onProgress });
}

export function countOnPage(job: CountJob): TextStats {
  if (typeof job.source !== 'string') throw new Error('Files are counted in the worker');
  return count(job.source, job);
}

export async function countInWorker(job: CountJob, progress: (fraction: number) => void): Promise<TextStats> {
  return count(typeof job.source === 'string' ? job.source : await readTextFile(job.source), job, progress);
}

/** Text from this size (UTF-16 code units), and files from this size (bytes), are counted in a worker. */
export const WORKER_THRESHOLD = 100_000;
