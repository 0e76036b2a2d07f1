import { closeOnSignals } from '@tinkerdesk/nest-common';
import { startService } from './start.js';

const service = await startService();
closeOnSignals(service.close, service.logger, { graceMs: service.graceMs });
