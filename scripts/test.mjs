#!/usr/bin/env node
// `npm test`: the whole suite, in order: build, typecheck, lint, unit, medium (the gateway in-process
// against real NATS and the services, started once), integration (real PostgreSQL, NATS, Redis, a
// platform per file, each copying a database migrated once), end-to-end (Playwright in Debian's Chromium
// against the real platform). Prints a table of each step's time, then one closing line
// "tests: N passed, M failed" (the last line). `--only=unit,integration` runs a subset.
import './runtime.mjs';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { ensureDebianPrograms } from './debian-programs.mjs';
import { checkInfrastructure, sweepStaleTestStreams } from './infra.mjs';
import { run } from './processes.mjs';

const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',');
const want = (step) => !only || only.includes(step);
const ALL_STEPS = ['build', 'typecheck', 'lint', 'unit', 'medium', 'integration', 'e2e'];

// The Debian programs the chosen steps use: installed now when this machine can, else one line and stop.
ensureDebianPrograms(ALL_STEPS.filter(want));
const reports = 'test-results';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const problems = await checkInfrastructure();
if (problems.length > 0) {
  for (const line of problems) console.error(line);
  process.exit(1);
}
const swept = await sweepStaleTestStreams();
if (swept > 0) console.log(`removed ${swept} JetStream streams that killed test runs left behind (older than 3 hours)`);

// Jest's ESM mode needs vm modules, which Node marks experimental: say so once here, not in every run's output.
const jest = ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning', 'node_modules/jest/bin/jest.js', '--ci'];
/**
 * Integration files that make a load of their own and bound answer times under it (a CPU burner beside a
 * steady load): they run after the others, one at a time, so that another file's platform on the same two
 * cores does not add a load the test did not choose. Their bounds then measure the platform, not the
 * neighbour (fault.int-spec's 2 s bound over a 1.5 s deadline was passed once by 82 ms, beside another file).
 */
const SOLO_INTEGRATION = ['apps/gateway/test/fault.int-spec.ts'];
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const steps = [
  ['build', () => run('npm', ['run', '--silent', 'build'])],
  [
    'typecheck',
    () =>
      run('npx', ['tsc', '-p', 'apps/web/tsconfig.json', '--noEmit'])
        .then(() => run('npx', ['tsc', '-p', 'apps/web/src/sw/tsconfig.json']))
        .then(() => run('npx', ['tsc', '-p', 'tsconfig.tests.json'])),
  ],
  // The module-boundary rule (@nx/enforce-module-boundaries) reads Nx's project graph from its cache and
  // silently skips itself when there is none (a fresh clone): compute the graph first.
  [
    'lint',
    () =>
      run('npx', ['nx', 'show', 'projects'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NX_DAEMON: 'false' } })
        .then(() => run('npx', ['eslint', '--max-warnings=0', '.']))
        // The house format (.prettierrc; prose in Markdown is left as written, .prettierignore).
        .then(() => run('npx', ['prettier', '--check', '--log-level=warn', '.'])),
  ],
  ['unit', () => run(process.execPath, [...jest, '--selectProjects', 'unit', '--json', `--outputFile=${reports}/unit.json`])],
  [
    'medium',
    () => run(process.execPath, [...jest, '--selectProjects', 'medium', '--runInBand', '--json', `--outputFile=${reports}/medium.json`]),
  ],
  [
    'integration',
    async () => {
      const together = await run(process.execPath, [
        ...jest,
        '--selectProjects',
        'integration',
        // Two files at a time: each has its own platform, database and prefixes, and much of a file's time
        // is waiting (processes starting, queues, timers), not computing.
        '--maxWorkers=2',
        // Jest's option on the command line replaces the config's list: its entries are repeated here.
        '--testPathIgnorePatterns',
        '/node_modules/',
        '/dist/',
        ...SOLO_INTEGRATION.map(escapeRegExp),
        '--json',
        `--outputFile=${reports}/integration.json`,
      ]).then(
        () => undefined,
        (error) => error,
      );
      // Run whatever the first part's outcome, so that one run reports every failure.
      await run(process.execPath, [
        ...jest,
        '--selectProjects',
        'integration',
        '--runInBand',
        '--json',
        `--outputFile=${reports}/integration-solo.json`,
        '--runTestsByPath',
        ...SOLO_INTEGRATION,
      ]);
      if (together) throw together;
    },
  ],
  [
    'e2e',
    () =>
      run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
        // Absolute: Playwright resolves a relative name against the config's folder (e2e/).
        env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: resolve(reports, 'e2e.json') },
      }),
  ],
];

// The steps of one stage run side by side: typecheck and lint are each single-threaded processes, so on two
// cores the pair takes about as long as the longer of them.
const stages = [['build'], ['typecheck', 'lint'], ['unit'], ['medium'], ['integration'], ['e2e']];
const stepsByName = new Map(steps);

const failedSteps = [];
/** Each step that ran: its name, seconds and outcome, for the summary table at the end. */
const timings = [];
const suiteStarted = Date.now();
const seconds = (since) => Math.round((Date.now() - since) / 1000);
async function runStep(name) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  try {
    await stepsByName.get(name)();
    timings.push({ name, seconds: seconds(started), outcome: 'ok' });
    console.log(`=== ${name}: ok (${seconds(started)} s) ===`);
  } catch (error) {
    timings.push({ name, seconds: seconds(started), outcome: 'FAILED' });
    console.error(`=== ${name}: FAILED (${error instanceof Error ? error.message : String(error)}) ===`);
    failedSteps.push(name);
  }
}
for (const stage of stages) {
  await Promise.all(stage.filter(want).map(runStep));
  if (failedSteps.includes('build')) break;
}

function readJson(path) {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}
let passed = 0;
let failed = 0;
for (const name of ['unit', 'medium', 'integration', 'integration-solo']) {
  const report = readJson(`${reports}/${name}.json`);
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
  }
}
const e2e = readJson(`${reports}/e2e.json`);
if (e2e) {
  passed += e2e.stats.expected + e2e.stats.flaky;
  failed += e2e.stats.unexpected;
}
timings.sort((a, b) => ALL_STEPS.indexOf(a.name) - ALL_STEPS.indexOf(b.name));
console.log('\nstep          time  result');
for (const t of timings) console.log(`${t.name.padEnd(11)} ${String(t.seconds).padStart(5)} s  ${t.outcome}`);
console.log(`${'total'.padEnd(11)} ${String(seconds(suiteStarted)).padStart(5)} s`);
if (failedSteps.length > 0) console.error(`\nfailed steps: ${failedSteps.join(', ')}`);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(failedSteps.length > 0 ? 1 : 0);
