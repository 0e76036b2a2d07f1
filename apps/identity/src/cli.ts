import { loadConfigOrExit } from '@tinkerdesk/nest-common';
import { openDataSource } from '@tinkerdesk/persistence';
import { AccountsRepository } from './accounts/accounts.repository.js';
import { schema } from './config.js';
import { dataSourceOptions } from './database/data-source.js';

/**
 * Operator commands of the identity service:
 *   node apps/identity/dist/cli.js grant-admin <email>    make an account an administrator
 *   node apps/identity/dist/cli.js revoke-admin <email>   make it a plain user again
 */
const [command, email] = process.argv.slice(2);
const roles: Record<string, 'admin' | 'user'> = { 'grant-admin': 'admin', 'revoke-admin': 'user' };
const role = command ? roles[command] : undefined;
if (!role || !email) {
  process.stderr.write('usage: node apps/identity/dist/cli.js grant-admin|revoke-admin <email>\n');
  process.exit(64);
}
const config = loadConfigOrExit(schema);
const dataSource = await openDataSource(dataSourceOptions(config.DATABASE_URL));
try {
  const changed = await new AccountsRepository(dataSource).setRole(email, role);
  if (!changed) {
    process.stderr.write(`no account with the email ${email}\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`${email} is now ${role === 'admin' ? 'an administrator' : 'a plain user'}\n`);
  }
} finally {
  await dataSource.destroy();
}
