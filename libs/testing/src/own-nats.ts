import { join } from 'node:path';
import { OwnServer } from './own-server.js';

/**
 * A NATS server with JetStream of a test's own (Debian's /usr/sbin/nats-server), its JetStream store in
 * a directory of its own: stopped and started again, it keeps its streams, consumers and object stores,
 * as a production NATS with file storage does.
 */
export class OwnNats extends OwnServer {
  /** `nats://127.0.0.1:PORT` */
  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<OwnNats> {
    const { dir, port } = await OwnServer.prepare('nats');
    const nats = new OwnNats(dir, port);
    await nats.startServer();
    return nats;
  }

  protected command(): { program: string; args: string[] } {
    return {
      program: '/usr/sbin/nats-server',
      args: ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', join(this.dir, 'jetstream')],
    };
  }
}
