/// <reference lib="webworker" />
import type { TextStats } from '@tinkerdesk/tools/word-count';
import { serveWorkerTask } from '../../shared/ui/worker-task';
import { countInWorker, type CountJob } from './count-job';

serveWorkerTask<CountJob, TextStats>(async (job, progress) => ({ result: await countInWorker(job, progress) }));
