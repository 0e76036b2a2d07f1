#!/usr/bin/env node
// Creates the database if missing and runs every service's migrations, in order.
import { existsSync } from 'node:fs';
import { run, SERVICES } from './processes.mjs';

for (const service of SERVICES) {
  const entry = `apps/${service}/dist/migrate.js`;
  if (!existsSync(entry)) {
    console.error(`${entry} is missing: run \`npm run build\` first`);
    process.exit(1);
  }
  await run(process.execPath, [entry]);
}
