import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A process's Kubernetes probes on HEALTH_PORT: `GET /live` and `GET /ready`. */
export interface ProbeServer {
  /** Listening (port 0 picks one: tests). */
  readonly listening: Promise<AddressInfo>;
  /** The process has begun to stop: `/ready` answers 503 from now on; `/live` still answers 200. */
  stopping(): void;
  /** Stops listening (at the end of the stop, once what was in hand is done). */
  close(): Promise<void>;
}

const json = { 'content-type': 'application/json' };

/**
 * Serves `/live` (200 while the process runs) and `/ready` (200 when `ready()` says so, else 503). From
 * `stopping()` on, `/ready` answers 503 `{"status":"down","reason":"stopping"}` at once, without asking
 * `ready()`, while the process finishes what it holds; the server stays up until `close()`, so the probes
 * read "stopping" rather than a refused connection.
 */
export function startProbeServer(port: number, ready: () => Promise<boolean> | boolean): ProbeServer {
  let stopping = false;
  const server: Server = createServer((req, res) => {
    if (req.url === '/live') return void res.writeHead(200, json).end('{"status":"up"}');
    if (req.url !== '/ready') return void res.writeHead(404).end();
    if (stopping) return void res.writeHead(503, json).end('{"status":"down","reason":"stopping"}');
    Promise.resolve()
      .then(ready)
      .catch(() => false)
      .then((ok) => res.writeHead(ok ? 200 : 503, json).end(JSON.stringify({ status: ok ? 'up' : 'down' })));
  });
  const listening = new Promise<AddressInfo>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server.address() as AddressInfo));
  });
  return {
    listening,
    stopping: () => {
      stopping = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
