import { bootstrapService, checkSavedFilesConfig, type ServiceHandle } from '@tinkerdesk/nest-common';
import { HealthService } from '@tinkerdesk/persistence';
import { AppModule } from './app.module.js';
import { schema } from './config.js';

/** Starts the conversion NATS listener; tests call it in-process with their own environment. */
export function startService(env: Record<string, string | undefined> = process.env): Promise<ServiceHandle> {
  return bootstrapService({
    name: 'conversion',
    schema,
    env,
    check: checkSavedFilesConfig,
    module: (config, logger) => AppModule.register(config, logger),
    readiness: (app) => () => app.get(HealthService).ready(),
  });
}
