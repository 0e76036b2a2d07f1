// The Debian programs the test suite uses, and what `npm test` does when some are missing: install them
// when it can (root with apt-get), otherwise stop at once with one line naming the packages and the
// exact command. The decision is a pure function (unit-tested); the probing and the install are not.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const LIBREOFFICE = ['libreoffice-core-nogui', 'libreoffice-writer-nogui', 'libreoffice-calc-nogui', 'libreoffice-impress-nogui'];

/**
 * What the tests use. `steps` names the test steps that need it; a program is present when every
 * command is on the PATH and every file exists.
 */
export const PROGRAMS = [
  { name: 'Chromium', commands: ['chromium'], packages: ['chromium'], steps: ['integration', 'e2e'] },
  { name: 'pdftoppm and pdftotext', commands: ['pdftoppm', 'pdftotext'], packages: ['poppler-utils'], steps: ['integration', 'e2e'] },
  {
    name: 'epubcheck with Java',
    commands: ['java'],
    files: ['/usr/share/java/epubcheck.jar'],
    packages: ['epubcheck', 'default-jre-headless'],
    steps: ['integration', 'e2e'],
  },
  {
    name: 'LibreOffice with its fonts and UNO bridge',
    commands: ['soffice'],
    files: [
      '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf',
      '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
      '/usr/lib/python3/dist-packages/uno.py',
    ],
    // python3-uno: the conversion workers keep LibreOffice warm through its UNO bridge (bin/uno-bridge.py).
    packages: [...LIBREOFFICE, 'python3-uno', 'fonts-liberation2', 'fonts-dejavu-core'],
    steps: ['integration', 'e2e'],
  },
  // bubblewrap: LibreOffice converts inside its sandbox (no network, no view of the worker's files).
  { name: 'bubblewrap', commands: ['bwrap'], packages: ['bubblewrap'], steps: ['integration', 'e2e'] },
  // The wallet pass tests make Apple-style certificates and verify .pkpass signatures with it.
  { name: 'OpenSSL', commands: ['openssl'], packages: ['openssl'], steps: ['integration'] },
  { name: 'docker-compose', commands: ['docker-compose'], packages: ['docker-compose'], steps: ['unit'] },
];

/** The apt command that installs `packages`, with `sudo` when not root. */
export function installCommand(packages, { root }) {
  const sudo = root ? '' : 'sudo ';
  return `${sudo}apt-get update && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${packages.join(' ')}`;
}

/**
 * Decides what to do. `present(program)` tells whether a program is there; `root` and `apt` describe
 * the machine; `steps` are the test steps about to run.
 * → { action: 'none' } | { action: 'install', packages, command } | { action: 'stop', packages, line }
 */
export function decide({ programs = PROGRAMS, steps, present, root, apt }) {
  const missing = programs.filter((p) => p.steps.some((s) => steps.includes(s)) && !present(p));
  if (missing.length === 0) return { action: 'none' };
  const packages = [...new Set(missing.flatMap((p) => p.packages))];
  const command = installCommand(packages, { root });
  if (root && apt) return { action: 'install', packages, command, missing: missing.map((p) => p.name) };
  const names = missing.map((p) => p.name).join(', ');
  const how = apt ? `install them with: ${command}` : `this machine has no apt-get; install the Debian packages ${packages.join(' ')}`;
  return { action: 'stop', packages, line: `npm test needs ${names}, which this machine lacks: ${how}` };
}

function onPath(command) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

function exists(file) {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

export function isPresent(program) {
  return (program.commands ?? []).every(onPath) && (program.files ?? []).every(exists);
}

/**
 * Makes sure the programs the `steps` need are here. Returns normally when they are (installing them
 * first when it can); otherwise prints the one line and exits the process.
 */
export function ensureDebianPrograms(steps) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const decision = decide({ steps, present: isPresent, root, apt: onPath('apt-get') });
  if (decision.action === 'none') return;
  if (decision.action === 'stop') {
    console.error(decision.line);
    process.exit(1);
  }
  console.log(`installing what the tests use (${decision.missing.join(', ')}): ${decision.command}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...decision.packages],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) {
      console.error(`apt-get ${args[0]} failed (exit ${result.status ?? result.signal}); run it yourself: ${decision.command}`);
      process.exit(1);
    }
  }
  const still = PROGRAMS.filter((p) => p.steps.some((s) => steps.includes(s)) && !isPresent(p));
  if (still.length > 0) {
    console.error(`still missing after the install: ${still.map((p) => p.name).join(', ')}`);
    process.exit(1);
  }
}
