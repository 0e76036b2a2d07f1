import { describe, expect, it } from '@jest/globals';
import {
  decide,
  decideForStart,
  ensureEnginePrograms,
  installCommand,
  isPresent,
  PROGRAMS,
  type Program,
} from '../../scripts/debian-programs.mjs';

// What `npm test` does about the Debian programs its steps use: nothing, install them (root with
// apt-get), or stop at once with one line naming the packages and the exact command.

const byName = (name: string): Program => {
  const found = PROGRAMS.find((p) => p.name === name);
  if (!found) throw new Error(`no program ${name}`);
  return found;
};
const allBut =
  (...missing: string[]) =>
  (p: Program): boolean =>
    !missing.includes(p.name);
const ALL = ['build', 'typecheck', 'lint', 'unit', 'integration', 'e2e'];

describe('decide', () => {
  it('does nothing when every program the steps use is there', () => {
    expect(decide({ steps: ALL, present: () => true, root: true, apt: true })).toEqual({ action: 'none' });
  });

  it('ignores what only steps that do not run would use', () => {
    // Chromium is for e2e only: a unit run on a machine without it goes on.
    expect(decide({ steps: ['unit'], present: allBut('Chromium'), root: false, apt: true })).toEqual({ action: 'none' });
  });

  it('installs what is missing when root with apt-get, and only that', () => {
    const d = decide({ steps: ALL, present: allBut('Chromium', 'pdftoppm and pdftotext'), root: true, apt: true });
    expect(d).toEqual({
      action: 'install',
      packages: ['chromium', 'poppler-utils'],
      missing: ['Chromium', 'pdftoppm and pdftotext'],
      command: 'apt-get update && env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium poppler-utils',
    });
  });

  it('stops with one line naming the packages and the sudo command when not root', () => {
    const d = decide({ steps: ALL, present: allBut('Chromium'), root: false, apt: true });
    expect(d.action).toBe('stop');
    if (d.action !== 'stop') return;
    expect(d.line).not.toContain('\n');
    expect(d.line).toContain('Chromium');
    expect(d.line).toContain(
      'sudo apt-get update && sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium',
    );
  });

  it('stops naming the packages when the machine has no apt-get, even as root', () => {
    const d = decide({ steps: ['e2e'], present: allBut('epubcheck with Java'), root: true, apt: false });
    expect(d).toMatchObject({ action: 'stop', packages: ['epubcheck', 'default-jre-headless'] });
    if (d.action === 'stop') expect(d.line).toMatch(/no apt-get.*epubcheck default-jre-headless/);
  });

  it('names each package once when two programs share one', () => {
    const programs: Program[] = [
      { name: 'a', commands: ['a'], packages: ['shared', 'x'], steps: ['unit'], engines: [] },
      { name: 'b', commands: ['b'], packages: ['shared'], steps: ['unit'], engines: [] },
    ];
    const d = decide({ programs, steps: ['unit'], present: () => false, root: true, apt: true });
    expect(d).toMatchObject({ action: 'install', packages: ['shared', 'x'] });
  });
});

describe('the list of programs', () => {
  it('covers what the tests run: Chromium, pdftoppm, epubcheck with Java, LibreOffice with fonts and its sandbox, docker-compose', () => {
    expect(byName('Chromium').packages).toEqual(['chromium']);
    expect(byName('pdftoppm and pdftotext').packages).toEqual(['poppler-utils']);
    expect(byName('epubcheck with Java').files).toContain('/usr/share/java/epubcheck.jar');
    expect(byName('LibreOffice with its fonts and UNO bridge').packages).toEqual(
      expect.arrayContaining(['fonts-liberation2', 'fonts-dejavu-core', 'python3-uno']),
    );
    expect(byName('bubblewrap')).toMatchObject({ commands: ['bwrap'], packages: ['bubblewrap'], steps: ['integration', 'e2e'] });
    expect(byName('docker-compose').steps).toEqual(['unit']);
  });

  it('finds a program by its command on the PATH and its files', () => {
    const program = { packages: [], steps: [], engines: [] };
    expect(isPresent({ ...program, name: 'node', commands: ['node'] })).toBe(true);
    expect(isPresent({ ...program, name: 'none', commands: ['no-such-command-here'] })).toBe(false);
    expect(isPresent({ ...program, name: 'file', files: ['/no/such/file'] })).toBe(false);
  });

  it('builds the sudo-less command as root', () => {
    expect(installCommand(['a', 'b'], { root: true })).toBe(
      'apt-get update && env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends a b',
    );
  });
});

// What `npm start` does about the programs the conversion engines need at run time: nothing, install
// them (root with apt-get), or start without them and say once which conversions are off and how to
// turn them on. It never stops: the rest of the platform works without them.
describe('decideForStart', () => {
  it('names the run-time programs: LibreOffice with its sandbox, Chromium, pdftoppm; the test-only ones are not', () => {
    const runtime = PROGRAMS.filter((p) => p.engines.length > 0).map((p) => p.name);
    expect(runtime).toEqual(['Chromium', 'pdftoppm and pdftotext', 'LibreOffice with its fonts and UNO bridge', 'bubblewrap']);
    expect(decideForStart({ present: allBut('epubcheck with Java', 'OpenSSL', 'docker-compose'), root: false, apt: true })).toEqual({
      action: 'none',
    });
  });

  it('installs what the engines lack when root with apt-get', () => {
    expect(decideForStart({ present: allBut('LibreOffice with its fonts and UNO bridge'), root: true, apt: true })).toMatchObject({
      action: 'install',
      missing: ['LibreOffice with its fonts and UNO bridge'],
      packages: expect.arrayContaining(['libreoffice-writer-nogui', 'python3-uno']),
    });
  });

  it('starts without them otherwise, with one line: what is off, what is missing, the exact command', () => {
    const d = decideForStart({ present: allBut('LibreOffice with its fonts and UNO bridge', 'Chromium'), root: false, apt: true });
    expect(d.action).toBe('warn');
    if (d.action !== 'warn') return;
    expect(d.line).not.toContain('\n');
    expect(d.line).toMatch(
      /^Conversions of web pages to PDF or PNG \(Chromium\), documents, spreadsheets and presentations \(LibreOffice\) are OFF: this machine lacks Chromium, LibreOffice with its fonts and UNO bridge\. /,
    );
    expect(d.line).toContain(
      `install them with: sudo apt-get update && sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium libreoffice-core-nogui`,
    );
  });

  it('names the packages where there is no apt-get', () => {
    const d = decideForStart({ present: allBut('bubblewrap'), root: true, apt: false });
    expect(d).toMatchObject({ action: 'warn', packages: ['bubblewrap'] });
    if (d.action === 'warn')
      expect(d.line).toMatch(
        /documents, spreadsheets and presentations \(LibreOffice\) are OFF.*no apt-get; install the Debian packages bubblewrap/,
      );
  });
});

describe('ensureEnginePrograms (what npm start prints)', () => {
  it('says it once, on one line, and goes on, when it cannot install', () => {
    const said: string[] = [];
    const d = ensureEnginePrograms({
      present: allBut('Chromium'),
      root: false,
      apt: true,
      warn: (l) => said.push(l),
      log: (l) => said.push(l),
    });
    expect(d.action).toBe('warn');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^Conversions of web pages to PDF or PNG \(Chromium\) are OFF/);
  });

  it('installs as root, and says once what is still off when the install fails', () => {
    const said: string[] = [];
    const installed: string[][] = [];
    const d = ensureEnginePrograms({
      present: allBut('Chromium'),
      root: true,
      apt: true,
      install: (packages) => (installed.push(packages), 'apt-get update failed (exit 100)'),
      log: (l) => said.push(`log: ${l}`),
      warn: (l) => said.push(`warn: ${l}`),
    });
    expect(installed).toEqual([['chromium']]);
    expect(d.action).toBe('warn');
    expect(said).toHaveLength(2);
    expect(said[0]).toMatch(/^log: installing what the conversion engines use \(Chromium\): apt-get update/);
    expect(said[1]).toMatch(/^warn: apt-get update failed \(exit 100\)\. Conversions of web pages to PDF or PNG \(Chromium\) are OFF/);
  });

  it('is silent when the engines have what they need', () => {
    const said: string[] = [];
    expect(
      ensureEnginePrograms({ present: () => true, root: true, apt: true, warn: (l) => said.push(l), log: (l) => said.push(l) }),
    ).toEqual({
      action: 'none',
    });
    expect(said).toEqual([]);
  });
});
