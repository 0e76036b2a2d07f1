import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** True once something accepts TCP connections on 127.0.0.1:port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A server program a test runs itself, on a free port of its own, with a data directory of its own that
 * outlives a stop: the test may stop it (a crash or a restart) and start it again on the same port with
 * the same data. The machine's shared servers are never touched. The child dies with the test's close().
 */
export abstract class OwnServer {
  private child: ChildProcess | undefined;
  private output = '';

  protected constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  protected static async prepare(tag: string): Promise<{ dir: string; port: number }> {
    return { dir: mkdtempSync(join(tmpdir(), `tinkerdesk-${tag}-`)), port: await freePort() };
  }

  /** The program and its arguments (the port and the directory are the instance's). */
  protected abstract command(): { program: string; args: string[] };

  /** What the server printed (for a failing test's message). */
  logs(): string {
    return this.output;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  /** Starts the server and waits until it accepts connections (10 s at most). */
  async startServer(): Promise<void> {
    if (this.child) return;
    const { program, args } = this.command();
    const child = spawn(program, args, { cwd: this.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    const keep = (d: Buffer): void => void (this.output += d.toString());
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('exit', () => {
      if (this.child === child) this.child = undefined;
    });
    const deadline = Date.now() + 10_000;
    while (!(await accepts(this.port))) {
      if (this.child !== child) throw new Error(`${program} exited at start:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`${program} did not listen on ${this.port} within 10 s:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Stops the server (SIGTERM: a clean stop, as a restart does; SIGKILL: a crash) and waits until it has exited. */
  async stopServer(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
    this.child = undefined;
  }

  /** Stops the server if it runs and removes its files. */
  async close(): Promise<void> {
    await this.stopServer('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}
