#!/usr/bin/env node
// `npm start`: checks PostgreSQL, NATS and Redis, builds, migrates, then runs the gateway, the four
// services and one conversion worker with their logs in one stream. Ctrl-C stops them all cleanly.
// Flags: --no-build (use the existing build), --workers=N (conversion workers, default 1).
import { checkInfrastructure } from './infra.mjs';
import { PROCESSES, run, SERVICES, startProcess } from './processes.mjs';

const args = process.argv.slice(2);
const build = !args.includes('--no-build');
const workers = Number(args.find((a) => a.startsWith('--workers='))?.split('=')[1] ?? 1);

const problems = await checkInfrastructure();
if (problems.length > 0) {
  for (const line of problems) console.error(line);
  process.exit(1);
}

try {
  if (build) await run('npm', ['run', '--silent', 'build']);
  // Each service migrates its own schema; they are independent, so in parallel.
  await Promise.all(SERVICES.map((service) => run(process.execPath, [`apps/${service}/dist/migrate.js`])));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

const list = PROCESSES.flatMap((p) => (p.name === 'conversion-worker' ? Array.from({ length: Math.max(1, workers) }, () => p) : [p]));
const children = [];
let stopping = false;

function stopAll(code) {
  if (stopping) return;
  stopping = true;
  let alive = children.filter(({ child }) => child.exitCode === null && child.signalCode === null).length;
  if (alive === 0) process.exit(code);
  for (const { child } of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.once('exit', () => {
      alive -= 1;
      if (alive === 0) process.exit(code);
    });
    child.kill('SIGTERM');
  }
  setTimeout(() => {
    for (const { child } of children) child.kill('SIGKILL');
    process.exit(code);
  }, 10_000).unref();
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

function launch(proc, index) {
  const child = startProcess(proc, index, process.env);
  children.push({ proc, child });
  child.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(`${proc.name} exited (${signal ?? code}); stopping the platform`);
    stopAll(1);
  });
  return child.ready;
}

// Services and workers first; the gateway once they all serve, so the first request finds them.
const backends = list.filter((p) => p.name !== 'gateway');
try {
  await Promise.all(backends.map((proc, index) => launch(proc, index)));
  await launch(
    list.find((p) => p.name === 'gateway'),
    backends.length,
  );
  const port = process.env.PORT ?? '8080';
  console.log(`Tinkerdesk is running at http://localhost:${port} (API docs at /v1/docs). Ctrl-C stops it.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  stopAll(1);
}
