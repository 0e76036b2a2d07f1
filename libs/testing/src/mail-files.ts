import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The first token `pattern` finds in a mail to `address` that identity kept as a file under
 * `<DATA_DIR>/mail` (no SMTP_URL), quoted-printable undone; waits up to 10 s for it.
 */
export async function mailedToken(dataDir: string, address: string, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const dir = join(dataDir, 'mail');
    let files: string[] = [];
    try {
      files = readdirSync(dir);
    } catch {
      // no mail yet
    }
    for (const file of files) {
      const raw = readFileSync(join(dir, file), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      const token = raw.includes(address) ? pattern.exec(raw)?.[1] : undefined;
      if (token) return token;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail for ${address} matching ${pattern}`);
}

/** The password reset link's token in the mail files. */
export const mailedResetToken = (dataDir: string, address: string) =>
  mailedToken(dataDir, address, /\/login#!\/reset\/([A-Za-z0-9_-]{43})/);
