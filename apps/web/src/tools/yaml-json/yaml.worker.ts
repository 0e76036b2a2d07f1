/// <reference lib="webworker" />
import { serveWorkerTask } from '../../shared/ui/worker-task';
import { convertInWorker, type YamlJob, type YamlResult } from './yaml-job';

serveWorkerTask<YamlJob, YamlResult>(async (job) => ({ result: await convertInWorker(job) }));
