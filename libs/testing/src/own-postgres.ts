import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** The newest PostgreSQL server programs of the machine (Debian keeps them per major version). */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('no PostgreSQL server programs under /usr/lib/postgresql');
  return join(root, newest, 'bin');
}

/**
 * A PostgreSQL cluster of a test's own, on a port of its own, that the test may stop and start (the
 * machine's server on 5432 is never touched). Runs as the postgres system user when the test runs as
 * root (PostgreSQL refuses to run as root), trust authentication, no fsync.
 */
export class OwnPostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  /** `postgres://postgres@127.0.0.1:PORT/NAME` */
  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  static async start(): Promise<OwnPostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'tinkerdesk-pg-'));
    chmodSync(dir, 0o700);
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      chownSync(dir, uid, gid);
    }
    const pg = new OwnPostgres(dir, await freePort());
    pg.run('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync']);
    pg.startServer();
    return pg;
  }

  private run(program: string, args: string[]): void {
    const path = join(postgresBin(), program);
    const asRoot = process.getuid?.() === 0;
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', path, ...args], { stdio: 'ignore' });
    else execFileSync(path, args, { stdio: 'ignore' });
  }

  /** Starts the server and waits until it accepts connections. */
  startServer(): void {
    this.run('pg_ctl', [
      '-D',
      join(this.dir, 'data'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      '-l',
      join(this.dir, 'log'),
      '-w',
      'start',
    ]);
  }

  /** Stops the server at once (mode immediate: every connection is cut, as in a crash). */
  stopServer(): void {
    this.run('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']);
  }

  /** Stops the server if it runs and removes its files. */
  close(): void {
    try {
      this.stopServer();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
