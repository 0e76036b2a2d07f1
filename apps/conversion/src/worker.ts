import { closeOnSignals } from '@tinkerdesk/nest-common';
import { startWorker } from './jobs/conversion.worker.js';

const worker = await startWorker();
closeOnSignals(worker.close, worker.logger, { graceMs: worker.graceMs });
