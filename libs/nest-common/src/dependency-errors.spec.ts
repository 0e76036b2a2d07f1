import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import pg from 'pg';
import { QueryFailedError } from 'typeorm';
import { createRedis } from './redis.js';
import { isDependencyUnavailable } from './dependency-errors.js';

/** The error node-postgres really raises when nothing listens where the database should be. */
async function refusedConnectionError(): Promise<unknown> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'postgres', connectionTimeoutMillis: 2000 });
  try {
    await pool.query('select 1');
  } catch (error) {
    return error;
  } finally {
    await pool.end();
  }
  throw new Error('expected the query to fail');
}

/** A server that accepts and hangs up at once: the driver's "Connection terminated". */
async function droppedConnectionError(): Promise<unknown> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres' });
  try {
    await client.connect();
  } catch (error) {
    return error;
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  throw new Error('expected the connection to fail');
}

/** What ioredis (as createRedis configures it) raises for a command while Redis is not there. */
async function redisDownError(): Promise<unknown> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const redis = createRedis(`redis://127.0.0.1:${port}`, 'dependency-errors-spec');
  redis.on('error', () => undefined);
  try {
    await redis.get('x');
  } catch (error) {
    return error;
  } finally {
    redis.disconnect();
  }
  throw new Error('expected the command to fail');
}

describe('isDependencyUnavailable', () => {
  it('knows a Redis that is not there (ioredis gives up on the command)', async () => {
    expect(isDependencyUnavailable(await redisDownError())).toBe(true);
  });

  it('knows a database that refuses connections and one that hangs up', async () => {
    expect(isDependencyUnavailable(await refusedConnectionError())).toBe(true);
    expect(isDependencyUnavailable(await droppedConnectionError())).toBe(true);
  });

  it('looks inside TypeORM’s wrapper and Error.cause for a server shutting down or out of connections', () => {
    for (const code of ['57P01', '57P03', '08006', '08001', '53300']) {
      const driverError = Object.assign(new Error('terminating connection due to administrator command'), { code });
      expect(isDependencyUnavailable(new QueryFailedError('select 1', [], driverError))).toBe(true);
      expect(isDependencyUnavailable(new Error('wrapped', { cause: driverError }))).toBe(true);
    }
    expect(isDependencyUnavailable(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]))).toBe(true);
  });

  it('does not take a bug or a refused statement for an outage', () => {
    for (const code of ['23505', '22P02', '42P01', '40001']) {
      const driverError = Object.assign(new Error('statement failed'), { code });
      expect(isDependencyUnavailable(new QueryFailedError('select 1', [], driverError))).toBe(false);
    }
    expect(isDependencyUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDependencyUnavailable(undefined)).toBe(false);
    expect(isDependencyUnavailable('ECONNREFUSED')).toBe(false);
  });
});
