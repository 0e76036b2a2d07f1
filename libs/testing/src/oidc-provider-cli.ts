/**
 * Runs the loopback OpenID provider of the tests on its own (for Playwright's webServer or by hand):
 *   OIDC_PORT=9400 OIDC_CLIENT_ID=tinkerdesk OIDC_CLIENT_SECRET=secret \
 *   OIDC_REDIRECT_URIS=http://localhost:18080/login/oauth/google node libs/testing/dist/oidc-provider-cli.js
 * Optional: OIDC_HOST (default 127.0.0.1). Prints "OIDC provider ready at <issuer>"; stops on SIGINT/SIGTERM.
 */
import { startOidcProvider } from './oidc-provider.js';

function required(name: string): string {
  const value = process.env[name]?.trim();
  if (!value) {
    process.stderr.write(`Configuration error: ${name} is required but not set\n`);
    process.exit(78);
  }
  return value;
}

const port = Number(process.env.OIDC_PORT ?? '0');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`Configuration error: OIDC_PORT must be a port number (got "${process.env.OIDC_PORT}")\n`);
  process.exit(78);
}
const redirectUris = required('OIDC_REDIRECT_URIS')
  .split(',')
  .map((uri) => uri.trim())
  .filter((uri) => uri !== '');

const provider = await startOidcProvider({
  port,
  ...(process.env.OIDC_HOST ? { host: process.env.OIDC_HOST } : {}),
  clients: [{ clientId: required('OIDC_CLIENT_ID'), clientSecret: required('OIDC_CLIENT_SECRET'), redirectUris }],
});
process.stdout.write(`OIDC provider ready at ${provider.issuer}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void provider.close().then(() => process.exit(0)));
}
