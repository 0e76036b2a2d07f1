import { describe, expect, it } from '@jest/globals';
import { BadRequestException, HttpException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { AppError, ERROR_CODES, ERROR_STATUS } from '@tinkerdesk/contracts';
import fc from 'fast-check';
import { mapError } from './error-mapping.js';

describe('mapError', () => {
  it('maps every catalogue code to its status and keeps the detail', () => {
    for (const code of ERROR_CODES) {
      const mapped = mapError(new AppError(code, 'why'), 'id-1');
      expect(mapped.status).toBe(ERROR_STATUS[code]);
      expect(mapped.body).toEqual({ success: false, error: code, detail: 'why' });
      expect(mapped.unexpected).toBeUndefined();
    }
  });

  it('turns the wait of RATE_LIMITED, also after a NATS round trip, into a Retry-After header in whole seconds', () => {
    const limited = AppError.rateLimited('too many tries', 12.2);
    expect(mapError(limited, 'x')).toEqual({
      status: 429,
      body: { success: false, error: 'RATE_LIMITED', detail: 'too many tries' },
      headers: { 'retry-after': '13' },
    });
    expect(mapError(AppError.fromPayload(limited.toPayload()), 'x').headers).toEqual({ 'retry-after': '13' });
    expect(mapError(AppError.rateLimited('soon', 0.01), 'x').headers).toEqual({ 'retry-after': '1' });
  });

  it('answers 503 UNAVAILABLE with an id for a dependency of the gateway that cannot be reached (Redis down), never 500', () => {
    const redisDown = Object.assign(
      new Error('Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.'),
      {
        name: 'MaxRetriesPerRequestError',
      },
    );
    for (const error of [redisDown, Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' })]) {
      const mapped = mapError(error, 'id-7');
      expect(mapped).toMatchObject({
        status: 503,
        body: { success: false, error: 'UNAVAILABLE', detail: expect.stringContaining('id-7') },
      });
      expect(mapped.unexpected).toBeUndefined();
      expect(mapped.unreachable).toBe(error);
    }
  });

  it('maps body-parser failures, also when Nest wraps them', () => {
    const parse = Object.assign(new SyntaxError('Unexpected token'), { type: 'entity.parse.failed', status: 400 });
    expect(mapError(parse, 'x')).toMatchObject({ status: 400, body: { error: 'MALFORMED_JSON' } });
    expect(mapError(new BadRequestException('Unexpected token', { cause: parse }), 'x')).toMatchObject({
      status: 400,
      body: { error: 'MALFORMED_JSON' },
    });
    const tooLarge = Object.assign(new Error('request entity too large'), { type: 'entity.too.large', status: 413 });
    expect(mapError(new HttpException('too large', 413, { cause: tooLarge }), 'x')).toMatchObject({
      status: 413,
      body: { error: 'PAYLOAD_TOO_LARGE' },
    });
  });

  it('maps multer limits', () => {
    expect(mapError(Object.assign(new Error('File too large'), { code: 'LIMIT_FILE_SIZE' }), 'x')).toMatchObject({
      status: 413,
      body: { error: 'PAYLOAD_TOO_LARGE' },
    });
    expect(mapError(Object.assign(new Error('Unexpected field'), { code: 'LIMIT_UNEXPECTED_FILE', field: 'image' }), 'x')).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_FAILED', detail: 'Unexpected field (image)' },
    });
  });

  it("maps Nest's 4xx exceptions to catalogue codes", () => {
    expect(mapError(new NotFoundException('Cannot GET /v1/x'), 'x')).toEqual({
      status: 404,
      body: { success: false, error: 'NOT_FOUND', detail: 'Cannot GET /v1/x' },
    });
    expect(mapError(new PayloadTooLargeException(), 'x')).toMatchObject({ status: 413, body: { error: 'PAYLOAD_TOO_LARGE' } });
  });

  it('hides unexpected failures behind an error id, with no stack or message in the body', () => {
    const secret = new Error('password=hunter2 at /srv/app.js:10');
    const mapped = mapError(secret, 'e-42');
    expect(mapped.status).toBe(500);
    expect(mapped.body).toEqual({
      success: false,
      error: 'INTERNAL',
      detail: 'an unexpected error occurred (error id e-42)',
      errorId: 'e-42',
    });
    expect(JSON.stringify(mapped.body)).not.toContain('hunter2');
    expect(mapped.unexpected).toBe(secret);
    expect(mapError(new HttpException('boom', 502), 'e-43').status).toBe(500);
    expect(mapError('a string', 'e-44').status).toBe(500);
  });

  it('never lets the message of an unexpected error into the body (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 12 }).filter((m) => !/error|occurred|unexpected|INTERNAL/i.test(m)),
        (message) => {
          const mapped = mapError(new Error(message), 'id');
          expect(mapped.status).toBe(500);
          expect(JSON.stringify(mapped.body)).not.toContain(JSON.stringify(message).slice(1, -1));
        },
      ),
    );
  });
});
