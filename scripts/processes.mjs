// The processes of the platform and how to run them, shared by start, migrate and the tests.
import { spawn } from 'node:child_process';

export const SERVICES = ['identity', 'commerce', 'terminals', 'conversion'];

/** Every process announces over IPC when it serves. The gateway goes last. */
export const PROCESSES = [
  { name: 'identity', entry: 'apps/identity/dist/main.js' },
  { name: 'commerce', entry: 'apps/commerce/dist/main.js' },
  { name: 'terminals', entry: 'apps/terminals/dist/main.js' },
  { name: 'conversion', entry: 'apps/conversion/dist/main.js' },
  { name: 'conversion-worker', entry: 'apps/conversion/dist/worker.js' },
  { name: 'gateway', entry: 'apps/gateway/dist/main.js' },
];

const COLORS = [36, 35, 33, 32, 34, 31, 96];

/** Runs a command to completion, inheriting the output; rejects on a non-zero exit. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${signal ?? code}`)),
    );
  });
}

/**
 * Starts a long-running process whose output lines are prefixed with its name; `child.ready`
 * resolves when it logs its ready message and rejects if it exits first.
 */
export function startProcess(proc, index, env) {
  const child = spawn(process.execPath, [proc.entry], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const tag = process.stdout.isTTY ? `\x1b[${COLORS[index % COLORS.length]}m${proc.name.padEnd(17)}\x1b[0m` : proc.name.padEnd(17);
  let markReady;
  let markFailed;
  child.ready = new Promise((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  child.ready.catch(() => undefined);
  child.once('exit', (code, signal) => markFailed(new Error(`${proc.name} exited (${signal ?? code}) before it was ready`)));
  child.on('message', (message) => {
    if (message && message.type === 'ready') markReady(message);
  });
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line) continue;
        process.stdout.write(`${tag} | ${line}\n`);
      }
    });
  }
  return child;
}

/**
 * How long `npm start` waits before restarting a process that died: 0.5 s, doubling with each restart
 * in a row up to 30 s. A process that stayed up for `stableMs` starts the count afresh.
 */
export function restartDelayMs(restartsInARow, { baseMs = 500, maxMs = 30_000 } = {}) {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, restartsInARow));
}

/** A process that ran this long before dying is not crash-looping: its next restart is immediate-ish again. */
export const STABLE_AFTER_MS = 60_000;
