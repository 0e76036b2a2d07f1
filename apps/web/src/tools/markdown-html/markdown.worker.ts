/// <reference lib="webworker" />
import { serveWorkerTask } from '../../shared/ui/worker-task';
import { convertMarkdown, type MarkdownJob, type MarkdownResult } from './markdown-job';

serveWorkerTask<MarkdownJob, MarkdownResult>(async (job) => ({ result: await convertMarkdown(job) }));
