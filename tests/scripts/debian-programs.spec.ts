import { describe, expect, it } from '@jest/globals';
import { decide, installCommand, isPresent, PROGRAMS, type Program } from '../../scripts/debian-programs.mjs';

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
      { name: 'a', commands: ['a'], packages: ['shared', 'x'], steps: ['unit'] },
      { name: 'b', commands: ['b'], packages: ['shared'], steps: ['unit'] },
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
    expect(isPresent({ name: 'node', commands: ['node'], packages: [], steps: [] })).toBe(true);
    expect(isPresent({ name: 'none', commands: ['no-such-command-here'], packages: [], steps: [] })).toBe(false);
    expect(isPresent({ name: 'file', files: ['/no/such/file'], packages: [], steps: [] })).toBe(false);
  });

  it('builds the sudo-less command as root', () => {
    expect(installCommand(['a', 'b'], { root: true })).toBe(
      'apt-get update && env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends a b',
    );
  });
});
