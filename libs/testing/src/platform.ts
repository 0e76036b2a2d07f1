import webpush from 'web-push';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
// The one list of the platform's processes, which `npm start` and `npm run migrate` read too. scripts/ is no
// Nx project, hence no package to import it by; only the tests (never a service) load libs/testing.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { PROCESSES, SERVICES } from '../../../scripts/processes.mjs';
import { cleanupRun } from './cleanup.js';
import { copyTemplateDatabase, templateDatabase } from './template-database.js';

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
  /** The Location header of a redirect (undefined otherwise). */
  location?: string;
}

/** What `TestPlatform.request` answers: the status, the parsed JSON body and every header. */
export interface RawAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

export interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** The source address of the connection (any 127.x.y.z works on loopback): a client or a proxy. */
  localAddress?: string;
}

/** An email address no other test uses. */
export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
}

/** The repository root (tests run from it). */
export const ROOT = resolve(process.cwd());

/** The platform's processes and their built entries: scripts/processes.mjs, which `npm start` runs too. */
export type ProcessName = (typeof PROCESSES)[number]['name'];

const ENTRIES = Object.fromEntries(PROCESSES.map((p) => [p.name, p.entry])) as Record<ProcessName, string>;

/**
 * An isolated environment for one test run: its own throwaway database, NATS subject prefix and
 * Redis key prefix, so runs never collide with each other or with `npm start`.
 */
/** The VAPID key pair of this test process. */
export const TEST_VAPID: { publicKey: string; privateKey: string } = webpush.generateVAPIDKeys();

export function isolatedEnv(extra: Record<string, string> = {}): Record<string, string> {
  const id = randomBytes(4).toString('hex');
  const web = mkdtempSync(join(tmpdir(), 'tinkerdesk-web-'));
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>Tinkerdesk test</title><div id="root"></div>');
  const base = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  return {
    ...base,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: `postgres://postgres@localhost:5432/tinkerdesk_test_${id}`,
    NATS_URL: 'nats://localhost:4222',
    NATS_PREFIX: `t${id}`,
    REDIS_URL: 'redis://localhost:6379',
    REDIS_PREFIX: `t${id}`,
    // JetStream reserves each object store's cap on its disk: test runs side by side must not run it out.
    FILES_STORE_MAX_BYTES: String(256 * 1024 ** 2),
    CONVERSION_STORE_MAX_BYTES: String(1024 ** 3),
    WEB_DIST: web,
    PORT: '0',
    HOST: '127.0.0.1',
    // Web Push on (a fresh key pair per run, as npm start makes one on its first run).
    VAPID_PUBLIC_KEY: TEST_VAPID.publicKey,
    VAPID_PRIVATE_KEY: TEST_VAPID.privateKey,
    // Integration files run two at a time on two cores, so a busy service can answer after the gateway's
    // production deadline (1.5 s) without being broken; a test about that deadline sets it itself
    // (fault.int-spec.ts stops a service with SIGSTOP and expects 503 in under 2 s).
    RPC_TIMEOUT_MS: '5000',
    ...extra,
  };
}

/** One query on a database, with a connection of its own. */
export async function queryDatabase<T extends pg.QueryResultRow>(databaseUrl: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

interface Running {
  child: ChildProcess;
  logs: string[];
  /** The gateway's URL once it serves. */
  url?: string;
}

/** How many copies of each process a platform runs: one number for every process, or a count per name (1 for the others). */
export type Replicas = number | Partial<Record<ProcessName, number>>;

export interface PlatformOptions {
  /** Two gateways, two of every service, two workers: `2`; or `{ commerce: 2 }`. Default 1. */
  replicas?: Replicas;
}

/** Which copy of a process: 0 (the first, the one every call without it means), 1, … */
export interface ReplicaOptions {
  replica?: number;
  timeoutMs?: number;
}

function runToEnd(entry: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [resolve(ROOT, entry)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => (code === 0 ? resolveRun() : reject(new Error(`${entry} exited ${code}: ${output}`))));
  });
}

/** Runs every service's migrate command (the built dist) against env.DATABASE_URL, side by side. */
export async function migrateServices(env: Record<string, string>): Promise<void> {
  await Promise.all(SERVICES.map((s) => runToEnd(`apps/${s}/dist/migrate.js`, env)));
}

/**
 * The real platform as separate processes (the built dist of each app), started for a test file, each
 * process in as many replicas as `options.replicas` says (gateways on ports of their own, services in
 * their NATS queue groups, workers on one queue). `stop` and `start` let fault tests take one replica
 * away and bring it back; every method without a replica means the first one.
 */
export class TestPlatform {
  private readonly running = new Map<ProcessName, Array<Running | undefined>>();
  /** The first gateway's URL (every `call` and `request` goes there). */
  url = '';

  constructor(readonly env: Record<string, string>) {}

  static async start(names: ProcessName[], extraEnv: Record<string, string> = {}, options: PlatformOptions = {}): Promise<TestPlatform> {
    const platform = new TestPlatform(isolatedEnv(extraEnv));
    const copies = (name: ProcessName): number[] => {
      const n = typeof options.replicas === 'number' ? options.replicas : (options.replicas?.[name] ?? 1);
      return Array.from({ length: Math.max(1, n) }, (_, i) => i);
    };
    try {
      // A run with a migrated template database (the integration project's globalSetup) copies it; a
      // platform on a PostgreSQL of its own (extraEnv.DATABASE_URL) or without a template migrates.
      const template = templateDatabase();
      if (template && extraEnv.DATABASE_URL === undefined) await copyTemplateDatabase(template, platform.env.DATABASE_URL ?? '');
      else await migrateServices(platform.env);
      const backends = names.filter((n) => n !== 'gateway');
      await Promise.all(backends.flatMap((n) => copies(n).map((replica) => platform.startProcess(n, { replica }))));
      if (names.includes('gateway')) await Promise.all(copies('gateway').map((replica) => platform.startProcess('gateway', { replica })));
    } catch (error) {
      // No caller holds the platform yet: stop what did start and drop the database, or the processes
      // outlive the test run (a globalSetup that throws gets no teardown).
      await platform.close().catch(() => undefined);
      throw error;
    }
    return platform;
  }

  /** The output of a process: of one replica, or of all of them (one after the other) when none is named. */
  logs(name: ProcessName, replica?: number): string {
    const all = this.running.get(name) ?? [];
    const chosen = replica === undefined ? all : [all[replica]];
    return chosen.map((r) => r?.logs.join('') ?? '').join('');
  }

  /** The URLs of the running gateways, by replica (a stopped one is missing). */
  get urls(): string[] {
    return (this.running.get('gateway') ?? []).flatMap((r) => (r?.url ? [r.url] : []));
  }

  /** The URL of one gateway replica. */
  urlOf(replica: number): string {
    const url = this.running.get('gateway')?.[replica]?.url;
    if (!url) throw new Error(`gateway ${replica} is not running`);
    return url;
  }

  /** Starts one replica of a process (the first by default; a number is the old `timeoutMs`) and waits until it serves. */
  async startProcess(name: ProcessName, options: number | ReplicaOptions = {}): Promise<void> {
    const { replica = 0, timeoutMs = 30_000 } = typeof options === 'number' ? { timeoutMs: options } : options;
    const child = spawn(process.execPath, [resolve(ROOT, ENTRIES[name])], { env: this.env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const logs: string[] = [];
    const entry: Running = { child, logs };
    const replicas = this.running.get(name) ?? [];
    replicas[replica] = entry;
    this.running.set(name, replicas);
    const label = replica === 0 ? name : `${name} ${replica}`;
    await new Promise<void>((resolveReady, reject) => {
      const timer = setTimeout(() => reject(new Error(`${label} not ready within ${timeoutMs} ms:\n${logs.join('')}`)), timeoutMs);
      const onData = (d: Buffer): void => void logs.push(d.toString());
      child.on('message', (message: { type?: string; url?: string }) => {
        if (message.type !== 'ready') return;
        if (message.url) {
          entry.url = message.url;
          if (replica === 0) this.url = message.url;
        }
        clearTimeout(timer);
        resolveReady();
      });
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${label} exited (${code}) before it was ready:\n${logs.join('')}`));
      });
    });
  }

  /** The process id of a running replica of a process (benchmarks read its CPU time); undefined when it is not running. */
  pidOf(name: ProcessName, replica = 0): number | undefined {
    const child = this.running.get(name)?.[replica]?.child;
    // A replica signalled (signalProcess) and exited since is not running either.
    return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
  }

  /**
   * Stops one replica of a process (the first by default; SIGKILL models a crash, SIGTERM a clean stop)
   * and waits for it to exit; `exited` says how (code or signal).
   */
  async stopProcess(
    name: ProcessName,
    signal: NodeJS.Signals = 'SIGTERM',
    replica = 0,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const how = await this.signalProcess(name, signal, replica);
    const replicas = this.running.get(name);
    if (replicas) replicas[replica] = undefined;
    return how;
  }

  /**
   * Sends a signal to one replica without waiting (a test that watches the stop while it runs); the
   * promise says how the process exited, once it has. Nothing is sent to a process that has exited.
   */
  signalProcess(name: ProcessName, signal: NodeJS.Signals, replica = 0): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const entry = this.running.get(name)?.[replica];
    if (!entry) return Promise.resolve({ code: null, signal: null });
    const { child } = entry;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
      child.once('exit', (code, sig) => r({ code, signal: sig })),
    );
    child.kill(signal);
    return exited;
  }

  /**
   * One JSON call to the gateway, with an optional bearer token. Redirects are not followed;
   * the body is parsed when the answer is JSON (else it is {}).
   */
  async call(method: string, path: string, body?: unknown, token?: string): Promise<ApiAnswer> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers,
      redirect: 'manual',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const json = res.headers.get('content-type')?.includes('application/json');
    const location = res.headers.get('location') ?? undefined;
    return {
      status: res.status,
      body: (json && text ? JSON.parse(text) : {}) as Record<string, unknown>,
      ...(location ? { location } : {}),
    };
  }

  /**
   * One call to the gateway with full control: extra headers (X-Forwarded-For), the connection's
   * source address (to play a proxy on 127.0.0.2) and the response headers (Retry-After).
   */
  request(method: string, path: string, options: RequestOptions = {}): Promise<RawAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    const payload = options.body !== undefined ? JSON.stringify(options.body) : undefined;
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    return new Promise((resolveAnswer, reject) => {
      const req = httpRequest(
        `${this.url}${path}`,
        { method, headers, agent: false, ...(options.localAddress ? { localAddress: options.localAddress } : {}) },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            const json = res.headers['content-type']?.includes('application/json');
            resolveAnswer({
              status: res.statusCode ?? 0,
              body: (json && text ? JSON.parse(text) : {}) as Record<string, unknown>,
              headers: res.headers,
            });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
    return queryDatabase<T>(this.env.DATABASE_URL ?? '', sql, params);
  }

  async close(): Promise<void> {
    await Promise.all(
      [...this.running].flatMap(([name, replicas]) => replicas.map((_, replica) => this.stopProcess(name, 'SIGTERM', replica))),
    );
    await cleanupRun({
      databaseUrl: this.env.DATABASE_URL ?? '',
      natsUrl: this.env.NATS_URL ?? '',
      natsPrefix: this.env.NATS_PREFIX ?? '',
      redisUrl: this.env.REDIS_URL ?? '',
      redisPrefix: this.env.REDIS_PREFIX ?? '',
    });
  }
}
