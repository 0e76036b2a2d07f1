import { loadConfigOrExit } from '@tinkerdesk/nest-common';
import { runMigrateCommand } from '@tinkerdesk/persistence';
import { schema } from './config.js';
import { dataSourceOptions } from './database/data-source.js';

/** Deployment command: creates the database and the commerce schema if missing, runs pending migrations. */
await runMigrateCommand('commerce', loadConfigOrExit(schema).DATABASE_URL, dataSourceOptions);
