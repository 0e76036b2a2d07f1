// The VAPID key pair of Web Push for `npm start`: taken from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY
// when set; otherwise made on the first run and kept in <DATA_DIR>/vapid.json (readable by this user
// only), so browsers' push subscriptions keep working across restarts with nothing to configure.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import webpush from 'web-push';

/** Sets process.env.VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY; answers where they came from. */
export function ensureVapidKeys(env = process.env) {
  if (env.VAPID_PUBLIC_KEY || env.VAPID_PRIVATE_KEY) return 'environment';
  const dir = env.DATA_DIR || 'data';
  const file = join(dir, 'vapid.json');
  let keys;
  try {
    keys = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    keys = webpush.generateVAPIDKeys();
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600 });
  }
  env.VAPID_PUBLIC_KEY = keys.publicKey;
  env.VAPID_PRIVATE_KEY = keys.privateKey;
  return file;
}
