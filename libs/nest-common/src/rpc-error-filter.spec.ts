import { describe, expect, it } from '@jest/globals';
import type { ArgumentsHost } from '@nestjs/common';
import { AppError, type RpcErrorPayload } from '@tinkerdesk/contracts';
import { firstValueFrom } from 'rxjs';
import type { Logger } from './logger.js';
import { reasonOf, RpcErrorFilter } from './rpc-server.js';

/** Every line a logger was given, by level. */
function recordingLogger() {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg: string }> = [];
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) => void lines.push({ level, obj, msg });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger };
}

/** A handler failing with `error` through the filter: the payload that crosses NATS and the log lines. */
async function fail(error: unknown) {
  const { lines, logger } = recordingLogger();
  const payload = await firstValueFrom(new RpcErrorFilter(logger).catch(error, {} as ArgumentsHost)).then(
    () => undefined,
    (e: unknown) => e as RpcErrorPayload,
  );
  return { lines, payload };
}

describe("the services' error filter: the level of each failure", () => {
  it('the database down is one warn line naming the dependency and the reason, no error, no stack', async () => {
    const down = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const { lines, payload } = await fail(down);
    expect(payload?.code).toBe('UNAVAILABLE');
    const errorId = /error id ([\w-]+)/.exec(payload?.detail ?? '')?.[1];
    expect(lines).toEqual([
      {
        level: 'warn',
        msg: 'a dependency is not reachable',
        obj: { dependency: 'postgresql', reason: down.message, errorId },
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('at ');
  });

  it('a refused connect to several addresses (AggregateError without a message) names the address and the first reason', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
      address: '127.0.0.1',
      port: 5432,
    });
    const { lines } = await fail(new AggregateError([refused], ''));
    expect(lines.map((l) => [l.level, l.obj.dependency, l.obj.reason])).toEqual([
      ['warn', '127.0.0.1:5432', 'connect ECONNREFUSED 127.0.0.1:5432'],
    ]);
    expect(lines[0]?.obj).not.toHaveProperty('err');
  });

  it('a real failure stays at error, with the error (its stack) and the id; the payload has no stack', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    const { lines, payload } = await fail(bug);
    expect(payload?.code).toBe('INTERNAL');
    expect(payload?.detail).not.toContain('TypeError');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'error', obj: { err: bug } });
    expect(payload?.detail).toContain(String(lines[0]?.obj.errorId));
  });

  it('a known AppError crosses intact and logs nothing', async () => {
    const { lines, payload } = await fail(new AppError('NOT_FOUND', 'no such order'));
    expect(payload).toMatchObject({ code: 'NOT_FOUND', detail: 'no such order' });
    expect(lines).toEqual([]);
  });

  it('reasonOf: the message, else the first inner message, else the code', () => {
    expect(reasonOf(new Error('Connection terminated unexpectedly'))).toBe('Connection terminated unexpectedly');
    expect(reasonOf({ message: '', cause: { message: 'inner' } })).toBe('inner');
    expect(reasonOf({ message: '', code: 'ETIMEDOUT' })).toBe('ETIMEDOUT');
  });
});
