// The Debian programs the test suite and the conversion engines use. `npm test` installs the ones its
// steps need when it can (root with apt-get), otherwise stops at once with one line naming the packages
// and the exact command. `npm start` installs the ones the engines need at run time the same way, and
// where it cannot, starts without them and says once which conversions are off and the command that
// brings them. The decisions are pure functions (unit-tested); the probing and the install are not.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const LIBREOFFICE = ['libreoffice-core-nogui', 'libreoffice-writer-nogui', 'libreoffice-calc-nogui', 'libreoffice-impress-nogui'];

/**
 * What the tests and the engines use. `steps` names the test steps that need it; `engines` the
 * conversion engines that need it at run time (empty: the tests only). A program is present when every
 * command is on the PATH and every file exists.
 */
export const PROGRAMS = [
  { name: 'Chromium', commands: ['chromium'], packages: ['chromium'], steps: ['integration', 'e2e'], engines: ['chromium'] },
  {
    name: 'pdftoppm and pdftotext',
    commands: ['pdftoppm', 'pdftotext'],
    packages: ['poppler-utils'],
    steps: ['integration', 'e2e'],
    engines: ['pdf-pages'],
  },
  {
    name: 'epubcheck with Java',
    commands: ['java'],
    files: ['/usr/share/java/epubcheck.jar'],
    packages: ['epubcheck', 'default-jre-headless'],
    steps: ['integration', 'e2e'],
    engines: [],
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
    engines: ['libreoffice'],
  },
  // bubblewrap: LibreOffice converts inside its sandbox (no network, no view of the worker's files).
  { name: 'bubblewrap', commands: ['bwrap'], packages: ['bubblewrap'], steps: ['integration', 'e2e'], engines: ['libreoffice'] },
  // The wallet pass tests make Apple-style certificates and verify .pkpass signatures with it.
  { name: 'OpenSSL', commands: ['openssl'], packages: ['openssl'], steps: ['integration'], engines: [] },
  { name: 'docker-compose', commands: ['docker-compose'], packages: ['docker-compose'], steps: ['unit'], engines: [] },
];

/** What each engine converts (the conversions that are off without it). */
export const ENGINE_USES = {
  libreoffice: 'documents, spreadsheets and presentations (LibreOffice)',
  chromium: 'web pages to PDF or PNG (Chromium)',
  'pdf-pages': 'PDF pages to images (pdftoppm)',
};

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

/**
 * Decides what `npm start` does about the programs the conversion engines need at run time: nothing,
 * install them (root with apt-get), or start without them with one line saying which conversions are
 * off and the command that brings them (never a stop: the rest of the platform works without them).
 * → { action: 'none' } | { action: 'install', packages, command, missing } | { action: 'warn', packages, line }
 */
export function decideForStart({ programs = PROGRAMS, present, root, apt }) {
  const missing = programs.filter((p) => p.engines.length > 0 && !present(p));
  if (missing.length === 0) return { action: 'none' };
  const packages = [...new Set(missing.flatMap((p) => p.packages))];
  const command = installCommand(packages, { root });
  if (root && apt) return { action: 'install', packages, command, missing: missing.map((p) => p.name) };
  return { action: 'warn', packages, line: offLine(missing, packages, { root, apt }) };
}

/** The one line of a start without some engines: what is missing, which conversions are off, how to bring them. */
function offLine(missing, packages, { root, apt }) {
  const engines = [...new Set(missing.flatMap((p) => p.engines))];
  const how = apt
    ? `install them with: ${installCommand(packages, { root })}`
    : `this machine has no apt-get; install the Debian packages ${packages.join(' ')}`;
  return (
    `Conversions of ${engines.map((e) => ENGINE_USES[e] ?? e).join(', ')} are OFF: this machine lacks ` +
    `${missing.map((p) => p.name).join(', ')}. The rest of the platform runs; to turn them on, ${how}, then start again.`
  );
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

/** The machine as the decisions see it. */
function machine() {
  return { root: typeof process.getuid === 'function' && process.getuid() === 0, apt: onPath('apt-get') };
}

export function isPresent(program) {
  return (program.commands ?? []).every(onPath) && (program.files ?? []).every(exists);
}

/**
 * Makes sure the programs the `steps` need are here. Returns normally when they are (installing them
 * first when it can); otherwise prints the one line and exits the process.
 */
export function ensureDebianPrograms(steps) {
  const decision = decide({ steps, present: isPresent, ...machine() });
  if (decision.action === 'none') return;
  if (decision.action === 'stop') {
    console.error(decision.line);
    process.exit(1);
  }
  console.log(`installing what the tests use (${decision.missing.join(', ')}): ${decision.command}`);
  const failure = aptInstall(decision.packages);
  if (failure !== undefined) {
    console.error(`${failure}; run it yourself: ${decision.command}`);
    process.exit(1);
  }
  const still = PROGRAMS.filter((p) => p.steps.some((s) => steps.includes(s)) && !isPresent(p));
  if (still.length > 0) {
    console.error(`still missing after the install: ${still.map((p) => p.name).join(', ')}`);
    process.exit(1);
  }
}

/** Runs apt-get update and install for `packages`; the failing step's message, or undefined when both worked. */
function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...packages],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) return `apt-get ${args[0]} failed (exit ${result.status ?? result.signal})`;
  }
  return undefined;
}

/**
 * `npm start`: makes sure the conversion engines have their programs, installing them when it can;
 * otherwise (or when the install fails) says so once, on one line, and returns: the platform starts
 * without them and its workers announce only the engines they have. Returns the decision (tests).
 */
export function ensureEnginePrograms({
  present = isPresent,
  root,
  apt,
  install = aptInstall,
  log = console.log,
  warn = console.error,
} = {}) {
  const here = machine();
  const decision = decideForStart({ present, root: root ?? here.root, apt: apt ?? here.apt });
  if (decision.action === 'warn') warn(decision.line);
  if (decision.action !== 'install') return decision;
  log(`installing what the conversion engines use (${decision.missing.join(', ')}): ${decision.command}`);
  const failure = install(decision.packages);
  const still = PROGRAMS.filter((p) => p.engines.length > 0 && !present(p));
  if (failure === undefined && still.length === 0) return decision;
  const packages = [...new Set(still.flatMap((p) => p.packages))];
  const line = `${failure ?? 'the install left programs missing'}. ${offLine(still, packages, { root: root ?? here.root, apt: apt ?? here.apt })}`;
  warn(line);
  return { action: 'warn', packages, line };
}
