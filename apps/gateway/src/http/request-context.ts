import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { REQUEST_ID_HEADER } from '@tinkerdesk/contracts';
import { epochMs, requestContext, type Logger } from '@tinkerdesk/nest-common';

const VALID_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Why a request was answered 503, for its log line: what was unavailable (error.filter.ts sets it). */
export interface Unavailable {
  dependency: string;
  reason: string;
  errorId?: string;
}

const UNAVAILABLE = Symbol('unavailable');
const RECEIVED_AT = Symbol('receivedAt');

/** When this request reached the gateway (epoch ms, `epochMs`): phase logs line up with other processes by it. */
export function receivedAt(res: Response): number | undefined {
  return (res.locals as { [RECEIVED_AT]?: number })[RECEIVED_AT];
}

/** Notes why this response is a 503 (its request's log line carries it). */
export function unavailable(res: Response, why: Unavailable): void {
  (res.locals as { [UNAVAILABLE]?: Unavailable })[UNAVAILABLE] = why;
}

/**
 * Gives every request an id (the caller's X-Request-Id when it is sane, else a new one), echoes it
 * in the response, runs the rest of the request inside it (logs, NATS headers) and logs the outcome: one
 * line a request; a 503 (an expected outage: a service, NATS or Redis unavailable, the gateway stopping) at
 * the warn level with what was unavailable, other 5xx at the error level (the filter logged the stack).
 */
export function requestContextMiddleware(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const given = req.header(REQUEST_ID_HEADER);
    const requestId = given && VALID_ID.test(given) ? given : randomUUID();
    res.setHeader(REQUEST_ID_HEADER, requestId);
    const started = performance.now();
    (res.locals as { [RECEIVED_AT]?: number })[RECEIVED_AT] = epochMs();
    requestContext.run({ requestId }, () => {
      res.on('finish', () => {
        const status = res.statusCode;
        const line = { method: req.method, url: req.originalUrl, status, ms: Math.round(performance.now() - started) };
        if (status === 503) {
          const why = (res.locals as { [UNAVAILABLE]?: Unavailable })[UNAVAILABLE];
          logger.warn({ ...line, dependency: why?.dependency ?? 'unknown', ...why }, 'request answered 503: a dependency is unavailable');
        } else if (status >= 500) logger.error(line, 'request failed');
        else if (req.originalUrl.startsWith('/v1/')) logger.info(line, 'request');
        else logger.debug(line, 'request');
      });
      next();
    });
  };
}

/**
 * Re-enters the request's context after the body parsers: they call on from the request stream's
 * events, outside the context the first middleware set, and the handler's NATS calls need it. What a
 * handler awaits later (multer's upload, a stream) resumes in the context it was awaited in, this one.
 * As an Express middleware rather than a global Nest interceptor: a route with no interceptor of its
 * own then runs without Nest's interceptor pipeline (its RxJS observables were about 5% of the
 * gateway's CPU on a read, docs/testing.md).
 */
export function reenterRequestContext(req: Request, res: Response, next: NextFunction): void {
  const requestId = res.getHeader(REQUEST_ID_HEADER);
  if (typeof requestId !== 'string') {
    next();
    return;
  }
  requestContext.run({ requestId }, next);
}
