// The OAuth keys of `npm start`: OAUTH_SIGNING_KEY (RSA, signs ID tokens; its public half is the
// JWKS) and OAUTH_COOKIE_KEYS (sign the provider's cookies). Taken from the environment when set;
// otherwise made on the first run and kept in <DATA_DIR>/oauth.json (readable by this user only), so
// apps' ID tokens keep verifying and consent flows survive restarts with nothing to configure.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Sets process.env.OAUTH_SIGNING_KEY and OAUTH_COOKIE_KEYS when unset; answers where they came from. */
export function ensureOAuthKeys(env = process.env) {
  if (env.OAUTH_SIGNING_KEY && env.OAUTH_COOKIE_KEYS) return 'environment';
  const dir = env.DATA_DIR || 'data';
  const file = join(dir, 'oauth.json');
  let keys;
  try {
    keys = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    keys = { signingKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), cookieKeys: [randomBytes(32).toString('hex')] };
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600 });
  }
  env.OAUTH_SIGNING_KEY ||= keys.signingKey;
  env.OAUTH_COOKIE_KEYS ||= keys.cookieKeys.join(',');
  return file;
}
