import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@tinkerdesk/nest-common';
import { queryDatabase, removeRedisKeys, sharedEnv, type ApiAnswer, type RawAnswer, type SharedEnv } from '@tinkerdesk/testing';
import type pg from 'pg';
import supertest from 'supertest';
import { schema, type GatewayConfig } from '../src/config.js';
import { createGatewayApp, type GatewayApp } from '../src/start.js';

/**
 * A medium test's gateway: the real gateway application (createGatewayApp, what main.ts runs) in the
 * test's own process, against the real NATS and the services the medium project's globalSetup started
 * once for the run (libs/testing/src/shared-platform.ts). Each test file has its own gateway, with its
 * own settings and its own Redis prefix for its rate-limit counters; the services, their database and
 * their Redis are shared, so a test makes its own accounts (uniqueEmail) and never counts rows it did
 * not make.
 */
export interface MediumGateway {
  readonly app: GatewayApp['app'];
  readonly config: GatewayConfig;
  /** The shared platform's environment with this gateway's settings (for the services' CLIs). */
  readonly env: Record<string, string>;
  /** Where the gateway listens (127.0.0.1, a free port): for raw sockets and fetch. */
  readonly url: string;
  readonly server: Server;
  /** A supertest agent on the gateway: `gateway.http.post('/v1/users').send({...}).expect(201)`. */
  readonly http: supertest.Agent;
  /** One JSON call through supertest, with an optional bearer token; redirects are not followed. */
  call(method: string, path: string, body?: unknown, token?: string): Promise<ApiAnswer>;
  /** A call with extra headers (X-Forwarded-For) that answers every header too. */
  request(method: string, path: string, options?: { body?: unknown; token?: string; headers?: Record<string, string> }): Promise<RawAnswer>;
  /** A query on the shared platform's database. */
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options'] as const;
type Method = (typeof METHODS)[number];

function method(name: string): Method {
  const lower = name.toLowerCase();
  const found = METHODS.find((m) => m === lower);
  if (!found) throw new Error(`no such method in supertest: ${name}`);
  return found;
}

/**
 * Starts a gateway in this process on the shared platform. `settings` are gateway variables
 * (RATE_LIMIT_FACTOR, FETCH_ALLOWED_HOSTS, TRUST_PROXY…); settings of a service need a platform of
 * their own (TestPlatform in an integration test).
 */
export async function startMediumGateway(settings: Record<string, string> = {}): Promise<MediumGateway> {
  const shared: SharedEnv = sharedEnv();
  const env: Record<string, string> = {
    ...shared,
    // Its own rate-limit counters: another file's sign-ups from 127.0.0.1 do not count against this one.
    REDIS_PREFIX: `${shared.REDIS_PREFIX}g${randomBytes(3).toString('hex')}`,
    PORT: '0',
    HOST: '127.0.0.1',
    // Quiet like the integration tests' processes, whose logs are kept rather than printed: an error
    // a test did not expect shows in its assertions. LOG_LEVEL in `settings` turns the logs on.
    LOG_LEVEL: 'fatal',
    ...settings,
  };
  const config = loadConfig(schema, env);
  const { app } = await createGatewayApp(config);
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer() as Server;
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const http = supertest(server);

  const send = (name: string, path: string, options: { body?: unknown; token?: string; headers?: Record<string, string> }) => {
    let test = http[method(name)](path).redirects(0);
    for (const [header, value] of Object.entries(options.headers ?? {})) test = test.set(header, value);
    if (options.token) test = test.set('authorization', `Bearer ${options.token}`);
    if (options.body !== undefined) test = test.set('content-type', 'application/json').send(JSON.stringify(options.body));
    return test;
  };
  const jsonBody = (res: supertest.Response): Record<string, unknown> =>
    res.type === 'application/json' && res.text ? (JSON.parse(res.text) as Record<string, unknown>) : {};

  return {
    app,
    config,
    env: {
      ...(Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)) as Record<
        string,
        string
      >),
      ...env,
    },
    url,
    server,
    http,
    async call(name, path, body, token) {
      const res = await send(name, path, { body, ...(token ? { token } : {}) });
      const location = res.headers.location as string | undefined;
      return { status: res.status, body: jsonBody(res), ...(location ? { location } : {}) };
    },
    async request(name, path, options = {}) {
      const res = await send(name, path, options);
      return { status: res.status, body: jsonBody(res), headers: res.headers as RawAnswer['headers'] };
    },
    query: <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => queryDatabase<T>(shared.DATABASE_URL, sql, params),
    async close() {
      await app.close();
      await removeRedisKeys(config.REDIS_URL, config.REDIS_PREFIX);
    },
  };
}
