import { afterEach, describe, expect, it } from '@jest/globals';
import { browserTimeZone } from './time-zones';

const scope = globalThis as { Temporal?: unknown };
const before = Object.getOwnPropertyDescriptor(globalThis, 'Temporal');

afterEach(() => {
  if (before) Object.defineProperty(globalThis, 'Temporal', before);
  else delete scope.Temporal;
});

describe('browserTimeZone', () => {
  it("takes Temporal's zone where there is one", () => {
    scope.Temporal = { Now: { timeZoneId: () => 'Asia/Calcutta' } };
    expect(browserTimeZone()).toBe('Asia/Calcutta');
  });

  it("answers Intl's zone without Temporal, with a Temporal that fails, and with one that answers nothing", () => {
    const intl = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    delete scope.Temporal;
    expect(browserTimeZone()).toBe(intl);
    scope.Temporal = {
      Now: {
        timeZoneId: () => {
          throw new RangeError('not supported');
        },
      },
    };
    expect(browserTimeZone()).toBe(intl);
    scope.Temporal = { Now: { timeZoneId: () => '' } };
    expect(browserTimeZone()).toBe(intl);
  });
});
