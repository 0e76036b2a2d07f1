import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * How long before the server's keep-alive timeout a client stops reusing an idle connection: every answer
 * says `Keep-Alive: timeout=<keepAliveTimeout in s>`, and a client that honours it (undici, Node's fetch:
 * 2 s of margin by default) drops the connection that much earlier. While draining, a connection idle
 * longer than the timeout less this margin is closed: no such client sends on it any more, so the close
 * cannot meet a request on its way (a connection closed after one second of idleness could: a pooled
 * client picks idle connections at random). Browsers retry an idempotent request on a reused connection
 * that closes.
 */
const CLIENT_KEEP_ALIVE_MARGIN_MS = 1500;

interface Connection {
  /** Answers begun on it and not finished. */
  busy: number;
  idleSince: number;
}

/**
 * The gateway's HTTP side of a graceful stop (SIGTERM). `drain` stops accepting connections, marks every
 * answer still to come `Connection: close` (Node closes the connection after it, and the client opens its
 * next request elsewhere instead of reusing it), lets the caller end what never ends by itself (live
 * streams), closes the keep-alive connections that stay idle (a client that was about to send on one would
 * see it close under its request: only those idle past the time a client still reuses them go), and waits until every connection has
 * closed, at most `graceMs`: the ones left then are cut.
 */
export class HttpDrain {
  private readonly connections = new Map<Socket, Connection>();
  /** Answers begun and not finished. */
  private readonly answering = new Set<ServerResponse>();
  private draining = false;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.connections.set(socket, { busy: 0, idleSince: Date.now() });
      socket.once('close', () => this.connections.delete(socket));
    });
    // Before the app's own listener: a request that arrives while draining is answered `Connection: close`.
    server.prependListener('request', (req, res: ServerResponse) => {
      if (this.draining) res.setHeader('connection', 'close');
      const connection = this.connections.get(req.socket);
      if (!connection) return;
      connection.busy += 1;
      this.answering.add(res);
      res.once('close', () => {
        this.answering.delete(res);
        connection.busy -= 1;
        connection.idleSince = Date.now();
      });
    });
  }

  /** Answers in progress (logs). */
  get inFlight(): number {
    return this.answering.size;
  }

  async drain(graceMs: number, endLongLived: () => Promise<void>): Promise<{ cut: number }> {
    this.draining = true;
    for (const res of this.answering) if (!res.headersSent) res.setHeader('connection', 'close');
    // net's close, not http's: http's would also close every idle connection at once, under requests being sent on them.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(this.server, () => resolve()));
    await endLongLived();
    const idleCloseMs = Math.max(0, this.server.keepAliveTimeout - CLIENT_KEEP_ALIVE_MARGIN_MS);
    const sweep = setInterval(() => {
      const now = Date.now();
      for (const [socket, c] of this.connections) if (c.busy === 0 && now - c.idleSince >= idleCloseMs) socket.destroy();
    }, 100);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      closed.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), graceMs);
      }),
    ]);
    clearTimeout(timer);
    clearInterval(sweep);
    const cut = timedOut ? this.answering.size : 0;
    if (timedOut) {
      this.server.closeAllConnections();
      await closed;
    }
    return { cut };
  }
}
