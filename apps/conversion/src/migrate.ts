import { loadConfigOrExit } from '@tinkerdesk/nest-common';
import { migrate } from '@tinkerdesk/persistence';
import { schema } from './config.js';
import { dataSourceOptions } from './database/data-source.js';

/** Deployment command: creates the database and the conversion schema if missing, runs pending migrations. */
const config = loadConfigOrExit(schema);
try {
  const ran = await migrate(dataSourceOptions(config.DATABASE_URL));
  process.stdout.write(JSON.stringify({ service: 'conversion', level: 'info', msg: 'migrations done', ran }) + '\n');
} catch (error) {
  process.stderr.write(`conversion migrations failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
