import { bootstrapService, type ServiceHandle } from '@tinkerdesk/nest-common';
import { HealthService } from '@tinkerdesk/persistence';
import { AppModule } from './app.module.js';
import { checkConfig, schema } from './config.js';

/** Starts the terminals service; tests call it in-process with their own environment. */
export function startService(env: Record<string, string | undefined> = process.env): Promise<ServiceHandle> {
  return bootstrapService({
    name: 'terminals',
    schema,
    check: checkConfig,
    env,
    module: (config, logger) => AppModule.register(config, logger),
    readiness: (app) => () => app.get(HealthService).ready(),
  });
}
