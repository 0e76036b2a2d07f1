import { describe, expect, it } from '@jest/globals';
import { enginesOf, isExecutable, missingLines, onPath, type MachineProbe } from './engine-detection.js';

/** Which engines a worker announces, from what it found on its machine at start. */

const ALL: MachineProbe = { soffice: true, sandbox: true, libreofficeMode: 'auto', unoBridge: true, chromium: true, pdftoppm: true };
const PATHS = { soffice: '/usr/bin/soffice', chromium: '/usr/bin/chromium', bwrap: '/usr/bin/bwrap' };

describe('enginesOf', () => {
  it('has every engine on a machine with all the programs', () => {
    expect(enginesOf(ALL, PATHS)).toEqual({ engines: ['images', 'libreoffice', 'pdf-pages', 'chromium'], missing: {} });
  });

  it('has no LibreOffice without soffice, and says where it looked and which setting moves it', () => {
    const found = enginesOf({ ...ALL, soffice: false }, { ...PATHS, soffice: '/nowhere/soffice' });
    expect(found.engines).toEqual(['images', 'pdf-pages', 'chromium']);
    expect(found.missing.libreoffice).toBe("LibreOffice's soffice is not at /nowhere/soffice (SOFFICE_PATH)");
  });

  it('has no LibreOffice where its sandbox cannot run (it never runs outside it)', () => {
    const found = enginesOf({ ...ALL, sandbox: false, sandboxReason: 'no user namespaces' }, PATHS);
    expect(found.missing.libreoffice).toMatch(/sandbox cannot run.*no user namespaces/);
  });

  it('needs the UNO bridge only when warm is asked for (auto falls back to cold)', () => {
    expect(enginesOf({ ...ALL, unoBridge: false }, PATHS).engines).toContain('libreoffice');
    expect(enginesOf({ ...ALL, unoBridge: false, libreofficeMode: 'warm' }, PATHS).missing.libreoffice).toMatch(/python3-uno/);
  });

  it('has no Chromium or pdftoppm engine without those programs; images always', () => {
    const found = enginesOf({ ...ALL, soffice: false, chromium: false, pdftoppm: false }, PATHS);
    expect(found.engines).toEqual(['images']);
    expect(Object.keys(found.missing)).toEqual(['libreoffice', 'chromium', 'pdf-pages']);
    expect(missingLines(found)).toHaveLength(3);
    expect(missingLines(found)[1]).toBe(
      'Chromium (web pages to PDF or PNG) is off on this worker: Chromium is not at /usr/bin/chromium (CHROMIUM_PATH)',
    );
  });
});

describe('the machine probes', () => {
  it('find executables and commands on a PATH', () => {
    expect(isExecutable(process.execPath)).toBe(true);
    expect(isExecutable('/no/such/soffice')).toBe(false);
    expect(onPath('sh', '/usr/bin:/bin')).toBe(true);
    expect(onPath('pdftoppm', '/no/such/dir')).toBe(false);
  });
});
