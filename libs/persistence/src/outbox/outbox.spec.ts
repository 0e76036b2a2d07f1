import { describe, expect, it } from '@jest/globals';
import { AppError } from '@tinkerdesk/contracts';
import { isPermanentFailure } from './outbox.js';

describe('isPermanentFailure (a listener sets such an event aside instead of retrying it)', () => {
  it('is true for answers that will be the same on every try', () => {
    for (const code of ['NOT_FOUND', 'IDENTIFIER_NOT_FOUND', 'VALIDATION_FAILED', 'FORBIDDEN', 'LINK_INVALID'] as const) {
      expect(isPermanentFailure(new AppError(code, 'x'))).toBe(true);
    }
  });

  it('is false for what can pass: a dependency down, a conflict, a rate limit, a timeout, a bug', () => {
    for (const code of ['UNAVAILABLE', 'CONFLICT', 'RATE_LIMITED', 'REQUEST_TIMEOUT', 'INTERNAL', 'UPSTREAM_ERROR'] as const) {
      expect(isPermanentFailure(new AppError(code, 'x'))).toBe(false);
    }
    expect(isPermanentFailure(new TypeError('undefined is not a function'))).toBe(false);
    expect(isPermanentFailure('NOT_FOUND')).toBe(false);
  });
});
