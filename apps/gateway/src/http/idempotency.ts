import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { AppError, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_PROBLEM } from '@tinkerdesk/contracts';
import type { Request } from 'express';

/** The Idempotency-Key header of a request, checked (400 VALIDATION_FAILED); undefined when there is none. */
export function idempotencyKey(req: Request): string | undefined {
  const value = req.header('idempotency-key');
  if (value === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) throw new AppError('VALIDATION_FAILED', IDEMPOTENCY_KEY_PROBLEM);
  return value;
}

/** A create's Idempotency-Key header as a handler parameter (checked; undefined when absent). */
export const IdempotencyKey = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined =>
  idempotencyKey(context.switchToHttp().getRequest<Request>()),
);

/** The key as a create message's field: `{ idempotencyKey }`, or nothing without one. */
export function withKey(key: string | undefined): { idempotencyKey?: string } {
  return key === undefined ? {} : { idempotencyKey: key };
}

/** Documents the Idempotency-Key header of a route that creates something. */
export const ApiCreateIdempotencyKey = (): MethodDecorator =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Makes a retry safe: the same key with the same request (same account) within 24 hours answers the first object again and creates no second one; with another request 409 CONFLICT; while the first still runs, 409 (retry in a moment). 1 to 255 printable characters without spaces (e.g. a UUID per user action).',
  });
