import { OwnServer } from './own-server.js';

/**
 * A Redis of a test's own, configured as production must be (docs/operations.md): the append-only file
 * on, synced every second, in a directory of its own, so a stop and a start keep every key (queues,
 * counters, conversion files). No RDB snapshots: the AOF is the one record.
 */
export class OwnRedis extends OwnServer {
  /** `redis://127.0.0.1:PORT` */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<OwnRedis> {
    const { dir, port } = await OwnServer.prepare('redis');
    const redis = new OwnRedis(dir, port);
    await redis.startServer();
    return redis;
  }

  protected command(): { program: string; args: string[] } {
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      this.dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
    ];
    return { program: 'redis-server', args: [...args, '--save', '', '--daemonize', 'no', '--protected-mode', 'no'] };
  }
}
