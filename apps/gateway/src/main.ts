import { closeOnSignals } from '@tinkerdesk/nest-common';
import { startGateway } from './start.js';

const gateway = await startGateway();
closeOnSignals(gateway.close, gateway.logger, { graceMs: gateway.config.SHUTDOWN_GRACE_MS });
