#!/usr/bin/env node
// `npm start`: checks PostgreSQL, NATS and Redis, brings the conversion engines' Debian programs
// (or says once which conversions are off without them), builds, migrates, then runs the gateway, the four
// services and one conversion worker with their logs in one stream. Ctrl-C stops them all cleanly.
// Flags: --no-build (use the existing build), --replicas=N (N gateways on PORT, PORT+1, …, N of each service
// in its NATS queue group, N conversion workers; default 1), --workers=N (conversion workers, default the replicas).
// A process that dies once the platform runs is restarted with backoff (restartDelayMs) and logged,
// while the others keep serving; one that dies before it was ever ready stops the start-up.
import './runtime.mjs';
import { ensureEnginePrograms } from './debian-programs.mjs';
import { checkInfrastructure } from './infra.mjs';
import { PROCESSES, restartDelayMs, run, SERVICES, STABLE_AFTER_MS, startProcess } from './processes.mjs';
import { ensureOAuthKeys } from './oauth-keys.mjs';
import { ensureVapidKeys } from './vapid.mjs';

const args = process.argv.slice(2);
const build = !args.includes('--no-build');
const flag = (name) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const replicas = Math.max(1, Number(flag('replicas') ?? 1) || 1);
const workers = Math.max(1, Number(flag('workers') ?? replicas) || 1);
const basePort = Number(process.env.PORT ?? '8080');

const problems = await checkInfrastructure();
if (problems.length > 0) {
  for (const line of problems) console.error(line);
  process.exit(1);
}

// LibreOffice, Chromium and pdftoppm for the conversion engines: installed now when this machine can
// (root with apt-get); otherwise the platform starts without them and one line says which conversions
// are off and the command that brings them (the workers announce only the engines they have).
ensureEnginePrograms();

try {
  if (build) await run('npm', ['run', '--silent', 'build']);
  // Each service migrates its own schema; they are independent, so in parallel.
  await Promise.all(SERVICES.map((service) => run(process.execPath, [`apps/${service}/dist/migrate.js`])));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

// Web Push works with nothing to set: a VAPID key pair made on the first run and kept.
ensureVapidKeys(process.env);
// OAuth too: the key that signs ID tokens and the cookie secrets, made once and kept.
ensureOAuthKeys(process.env);

// Each gateway on a port of its own (PORT, PORT+1, …: put a load balancer in front of them); the services
// share their load through NATS queue groups, the workers through the queue.
const list = PROCESSES.flatMap((p) =>
  Array.from({ length: p.name === 'conversion-worker' ? workers : replicas }, (_, i) => ({
    ...p,
    env: p.name === 'gateway' ? { ...process.env, PORT: String(basePort + i) } : process.env,
  })),
);
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

function launch(proc, index, restarts = 0) {
  const child = startProcess(proc, index, proc.env);
  const entry = { proc, child };
  children.push(entry);
  const started = Date.now();
  let ready = false;
  child.ready.then(
    () => (ready = true),
    () => undefined,
  );
  child.once('exit', (code, signal) => {
    if (stopping) return;
    if (!ready && restarts === 0) {
      console.error(`${proc.name} exited (${signal ?? code}) before it was ready; stopping the platform`);
      stopAll(1);
      return;
    }
    // The rest keeps serving; this one comes back after a pause that grows while it keeps dying.
    const inARow = Date.now() - started >= STABLE_AFTER_MS ? 0 : restarts;
    const delay = restartDelayMs(inARow);
    console.error(`${proc.name} exited (${signal ?? code}); restarting it in ${delay / 1000} s (restart ${inARow + 1} in a row)`);
    setTimeout(() => {
      if (stopping) return;
      children.splice(children.indexOf(entry), 1);
      launch(proc, index, inARow + 1).then(
        () => console.error(`${proc.name} is back`),
        () => undefined,
      );
    }, delay);
  });
  return child.ready;
}

// Services and workers first; the gateway once they all serve, so the first request finds them.
const backends = list.filter((p) => p.name !== 'gateway');
try {
  await Promise.all(backends.map((proc, index) => launch(proc, index)));
  const gateways = list.filter((p) => p.name === 'gateway');
  await Promise.all(gateways.map((proc, i) => launch(proc, backends.length + i)));
  const urls = gateways.map((g) => `http://localhost:${g.env.PORT ?? '8080'}`);
  const more = urls.length > 1 ? ` (its ${urls.length} gateways: ${urls.join(', ')})` : '';
  console.log(`Tinkerdesk is running at ${urls[0]}${more} (API docs at /v1/docs). Ctrl-C stops it.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  stopAll(1);
}
