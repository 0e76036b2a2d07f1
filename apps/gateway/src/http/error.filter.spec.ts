import { describe, expect, it } from '@jest/globals';
import type { ArgumentsHost } from '@nestjs/common';
import { AppError } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { HttpErrorFilter } from './error.filter.js';
import { dependencyOf } from './error-mapping.js';
import { requestContextMiddleware } from './request-context.js';

/** Every line a logger was given, by level. */
function recordingLogger() {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg: string }> = [];
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) => void lines.push({ level, obj, msg });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger };
}

/** A response as the filter and the request-context middleware use it; `end` finishes it as Express would. */
class FakeResponse extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  locals: Record<string, unknown> = {};
  headers: Record<string, string> = {};
  body: unknown;
  setHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  status(code: number) {
    this.statusCode = code;
    return this;
  }
  json(body: unknown) {
    this.body = body;
    this.emit('finish');
    return this;
  }
  destroy() {}
}

/** One request through the middleware (its log line) and the filter, failing with `error`. */
function failRequest(error: unknown) {
  const { lines, logger } = recordingLogger();
  const req = { method: 'GET', originalUrl: '/v1/users/me', path: '/v1/users/me', header: () => undefined } as unknown as Request;
  const res = new FakeResponse();
  requestContextMiddleware(logger)(req, res as unknown as Response, (() => undefined) as NextFunction);
  const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ArgumentsHost;
  new HttpErrorFilter(logger).catch(error, host);
  return { lines, res };
}

describe("the gateway's error logging: the level of each failure", () => {
  it('an expected outage (503 UNAVAILABLE: a service not answering) is one warn line naming the dependency, no error, no stack', () => {
    const { lines, res } = failRequest(new AppError('UNAVAILABLE', 'the identity service did not answer within 1500 ms'));
    expect(res.statusCode).toBe(503);
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(lines).toEqual([
      {
        level: 'warn',
        msg: 'request answered 503: a dependency is unavailable',
        obj: expect.objectContaining({
          status: 503,
          url: '/v1/users/me',
          dependency: 'identity',
          reason: 'the identity service did not answer within 1500 ms',
        }),
      },
    ]);
    expect(lines[0]?.obj).not.toHaveProperty('err');
  });

  it("the gateway's own Redis down (503 with an error id) is one warn line with the id and the driver, without the stack", () => {
    const redisDown = Object.assign(new Error('Reached the max retries per request limit (which is 1).'), {
      name: 'MaxRetriesPerRequestError',
    });
    const { lines, res } = failRequest(redisDown);
    const errorId = /error id ([\w-]+)/.exec(String((res.body as { detail: string }).detail))?.[1];
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', obj: { dependency: 'redis', errorId, reason: redisDown.message } });
    expect(lines[0]?.obj).not.toHaveProperty('err');
  });

  it('a real 500 stays at the error level, with the error (its stack) and the id', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    const { lines, res } = failRequest(bug);
    expect(res.statusCode).toBe(500);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['error', 'unexpected error'],
      ['error', 'request failed'],
    ]);
    expect(lines[0]?.obj).toMatchObject({ err: bug, errorId: (res.body as { errorId: string }).errorId });
    expect(lines.some((l) => l.level === 'warn')).toBe(false);
  });

  it('a client error (404) is no warning or error', () => {
    const { lines } = failRequest(new AppError('NOT_FOUND', 'no such order'));
    expect(lines.map((l) => l.level)).toEqual(['info']);
  });
});

describe('dependencyOf', () => {
  it('names what a 503 waited on, from the wording of each source', () => {
    const cases: Array<[unknown, string]> = [
      [new AppError('UNAVAILABLE', 'the commerce service is not available'), 'commerce'],
      [new AppError('UNAVAILABLE', 'the message bus is not reachable'), 'nats'],
      [new AppError('UNAVAILABLE', 'the gateway is not connected to NATS'), 'nats'],
      [new AppError('UNAVAILABLE', 'the limit counters are not reachable right now; try again shortly'), 'redis'],
      [new AppError('UNAVAILABLE', 'the file store is full right now; try again later'), 'file store'],
      [new AppError('ENGINE_UNAVAILABLE', 'converting a Word document needs LibreOffice (engine libreoffice)'), 'engine libreoffice'],
      [new AppError('UNAVAILABLE', 'example.com did not answer within 30000 ms'), 'example.com'],
      [
        new AppError('UNAVAILABLE', 'this part of the service is not available right now; try again shortly (error id 1)'),
        'a service dependency',
      ],
      [new AppError('UNAVAILABLE', 'something else'), 'unknown'],
      [
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6390'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 6390 }),
        '127.0.0.1:6390',
      ],
      [Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), 'postgresql'],
      [Object.assign(new Error('query failed'), { driverError: new Error('Connection terminated unexpectedly') }), 'postgresql'],
    ];
    expect(cases.map(([error]) => dependencyOf(error))).toEqual(cases.map(([, name]) => name));
  });
});
