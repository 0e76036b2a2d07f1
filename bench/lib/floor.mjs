// The architecture's floor for the products read (docs/testing.md, "The architecture's floor"): the
// customer's architecture (an HTTP gateway that asks a service over NATS, the service reading PostgreSQL,
// each in a process of its own) with none of the platform's code, in four variants that tell where the
// floor comes from. Each is two processes: bench/lib/floor-http.mjs (the HTTP half) and
// bench/lib/floor-service.mjs (the service half: the two statements side by side on a pg pool), talking
// through the machine's NATS server on a subject of their own.
import { fork } from 'node:child_process';

export const FLOORS = [
  { key: 'nest', name: 'floor: Nest (Express) → ClientNats → Nest NATS + pg', http: 'nest-express', service: 'nest' },
  { key: 'fastify', name: 'floor: Nest (Fastify) → ClientNats → Nest NATS + pg', http: 'nest-fastify', service: 'nest' },
  { key: 'raw', name: 'floor: Nest (Express) → raw NATS → raw subscriber + pg', http: 'nest-express-raw', service: 'nest-raw' },
  { key: 'bare', name: 'floor: node:http → raw NATS → bare responder + pg', http: 'bare', service: 'bare' },
];

function started(file, env) {
  const child = fork(new URL(file, import.meta.url), [], { env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, message }));
    child.once('exit', (code) => reject(new Error(`${file} (${env.MODE}) exited with ${code} before it was ready`)));
  });
}

/**
 * Starts every floor (its service half, then its HTTP half on `port + i`, or any port when `port` is 0)
 * and answers them with their base URL, their subject, their processes' ids and `close()`.
 */
export async function startFloors({ natsUrl, databaseUrl, prefix, port = 0 }) {
  const floors = [];
  for (const [i, floor] of FLOORS.entries()) {
    const subject = `${prefix}.floor.${floor.key}.products`;
    const service = await started('./floor-service.mjs', {
      MODE: floor.service,
      NATS_URL: natsUrl,
      DATABASE_URL: databaseUrl,
      SUBJECT: subject,
    });
    const http = await started('./floor-http.mjs', {
      MODE: floor.http,
      NATS_URL: natsUrl,
      SUBJECT: subject,
      PORT: String(port ? port + i : 0),
    });
    floors.push({
      ...floor,
      subject,
      url: `http://127.0.0.1:${http.message.port}`,
      pids: { http: http.child.pid, service: service.child.pid },
      close: () => {
        http.child.disconnect();
        service.child.disconnect();
      },
    });
  }
  return floors;
}

/** Waits until `url` answers `path` 200 (a subscription may reach the NATS server a moment after its process said ready). */
async function ready(url, path) {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${url}${path}`);
    await res.arrayBuffer();
    if (res.ok) return;
    if (attempt === 50) throw new Error(`${url}${path}: ${res.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The status and the body's bytes (as text) of `path` from `url`. */
async function answerOf(url, path) {
  const res = await fetch(`${url}${path}`);
  return `${res.status} ${await res.text()}`;
}

/** Throws unless every floor answers each of `paths` with the reference's status and bytes. */
export async function checkSameAnswers(floors, referenceUrl, paths) {
  for (const floor of floors) await ready(floor.url, paths[0]);
  for (const path of paths) {
    const expected = await answerOf(referenceUrl, path);
    for (const floor of floors) {
      const got = await answerOf(floor.url, path);
      if (got !== expected) throw new Error(`${floor.name} answers ${path} differently:\n${got}\n${expected}`);
    }
  }
}
