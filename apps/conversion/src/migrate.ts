import { loadConfigOrExit } from '@tinkerdesk/nest-common';
import { runMigrateCommand } from '@tinkerdesk/persistence';
import { schema } from './config.js';
import { dataSourceOptions } from './database/data-source.js';

/** Deployment command: creates the database and the conversion schema if missing, runs pending migrations. */
await runMigrateCommand('conversion', loadConfigOrExit(schema).DATABASE_URL, dataSourceOptions);
