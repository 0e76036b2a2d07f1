import { Matches } from 'class-validator';
import { Optional } from './input.js';

/** An Idempotency-Key: 1 to 255 printable ASCII characters without spaces (as Stripe takes it). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** What a bad Idempotency-Key header is told (400 VALIDATION_FAILED). */
export const IDEMPOTENCY_KEY_PROBLEM = 'Idempotency-Key must be 1 to 255 printable characters without spaces';

/** The `idempotencyKey` of a NATS create message (the gateway passes the Idempotency-Key header as it). */
export function IdempotencyKeyField(): PropertyDecorator {
  return (target, property) => {
    Optional()(target, property);
    Matches(IDEMPOTENCY_KEY_PATTERN, { message: IDEMPOTENCY_KEY_PROBLEM })(target, property);
  };
}

/** A create message that may carry the Idempotency-Key of its request. */
export interface IdempotentMessage {
  idempotencyKey?: string;
}
