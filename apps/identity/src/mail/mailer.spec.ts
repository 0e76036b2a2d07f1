import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@tinkerdesk/nest-common';
import { Mailer } from './mailer.js';

describe('Mailer without SMTP_URL', () => {
  it('writes each message as an .eml file under DATA_DIR/mail', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mail-'));
    const mailer = new Mailer({ from: 'Tinkerdesk <no-reply@tinkerdesk.dev>', dataDir }, createLogger('test', 'silent'));
    await mailer.send({ to: 'ada@example.com', subject: 'Hello Ada', text: 'A link: http://localhost:8080/x' });
    const files = readdirSync(join(dataDir, 'mail'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = readFileSync(join(dataDir, 'mail', files[0]!), 'utf8');
    expect(eml).toContain('To: ada@example.com');
    expect(eml).toContain('Subject: Hello Ada');
    expect(eml).toContain('http://localhost:8080/x');
  });
});
