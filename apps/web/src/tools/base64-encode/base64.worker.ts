/// <reference lib="webworker" />
import { serveWorkerTask } from '../../shared/ui/worker-task';
import { runBase64Job, type Base64Job, type DecodeResult, type EncodeResult } from './base64-jobs';

serveWorkerTask<Base64Job, EncodeResult | DecodeResult>(async (job, progress) => ({ result: await runBase64Job(job, progress) }));
