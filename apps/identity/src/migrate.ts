import { loadConfigOrExit } from '@tinkerdesk/nest-common';
import { runMigrateCommand } from '@tinkerdesk/persistence';
import { schema } from './config.js';
import { dataSourceOptions } from './database/data-source.js';

/** Deployment command: creates the database and the identity schema if missing, runs pending migrations. */
await runMigrateCommand('identity', loadConfigOrExit(schema).DATABASE_URL, dataSourceOptions);
