import { ArgumentsHost, Catch, type RpcExceptionFilter, ValidationPipe } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { AppError, type RpcErrorPayload } from '@tinkerdesk/contracts';
import { unavailableDependency } from './dependency-errors.js';
import { randomUUID } from 'node:crypto';
import { type Observable, throwError } from 'rxjs';
import { InputPipe } from './input-pipe.js';
import type { Logger } from './logger.js';

// The request context of each message (its request id in every log line) is PrefixedNatsServer's.

/**
 * Validation of message payloads with the same DTO classes the gateway validates with; every message
 * may take the quick way (flatDto). `quick: false`: the whole way only (the property tests' reference).
 */
export function rpcValidationPipe(quick = true): InputPipe {
  const validation = new ValidationPipe({
    whitelist: true,
    forbidUnknownValues: true,
    transform: true,
    exceptionFactory: (errors) => {
      const detail = errors.flatMap((e) => Object.values(e.constraints ?? { [e.property]: `${e.property} is invalid` })).join('; ');
      return new AppError('VALIDATION_FAILED', detail || 'invalid message');
    },
  });
  // A message's payload arrives as Nest's RPC parameter type (a number), never 'custom'.
  return new InputPipe(validation, () => quick);
}

/**
 * What an outage's log line says happened: the error's message, else (an AggregateError of a connect
 * to several addresses, a wrapper without text) the first message or code found inside it.
 */
export function reasonOf(error: unknown, depth = 0): string {
  if (depth > 5 || typeof error !== 'object' || error === null) return String(error);
  const e = error as { message?: unknown; code?: unknown; errors?: unknown; cause?: unknown; driverError?: unknown };
  if (typeof e.message === 'string' && e.message !== '') return e.message;
  for (const inner of [...(Array.isArray(e.errors) ? e.errors : []), e.driverError, e.cause]) {
    if (typeof inner === 'object' && inner !== null) return reasonOf(inner, depth + 1);
  }
  return typeof e.code === 'string' ? e.code : 'unknown';
}

/**
 * Turns every failure of a handler into an RpcErrorPayload. Known AppErrors cross NATS intact;
 * a dependency that cannot be reached (the database down) crosses as UNAVAILABLE and is logged as one
 * warn line (dependency, reason, error id; no stack); anything else is logged at error with its stack
 * and an id and crosses as INTERNAL with that id, without a stack.
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    let payload: RpcErrorPayload;
    let dependency: string | undefined;
    if (exception instanceof AppError) {
      payload = exception.toPayload();
    } else if (exception instanceof RpcException && exception.getError() instanceof AppError) {
      payload = (exception.getError() as AppError).toPayload();
    } else if ((dependency = unavailableDependency(exception)) !== undefined) {
      // The database (or another server this service needs) is down: the caller may retry shortly.
      // An expected outage: one warn line naming what and why, without the stack (it says nothing more).
      const errorId = randomUUID();
      this.logger.warn({ dependency, reason: reasonOf(exception), errorId }, 'a dependency is not reachable');
      payload = {
        code: 'UNAVAILABLE',
        detail: `this part of the service is not available right now; try again shortly (error id ${errorId})`,
      };
    } else {
      const errorId = randomUUID();
      this.logger.error({ err: exception, errorId }, 'unhandled error in message handler');
      payload = { code: 'INTERNAL', detail: `unexpected error (error id ${errorId})` };
    }
    return throwError(() => payload);
  }
}
