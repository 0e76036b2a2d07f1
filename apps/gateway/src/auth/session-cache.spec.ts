import { describe, expect, it } from '@jest/globals';
import { SessionCache } from './session-cache.js';

const A = { userId: 'user-a', sessionId: 'session-a1' };
const A2 = { userId: 'user-a', sessionId: 'session-a2' };
const B = { userId: 'user-b', sessionId: 'session-b1' };

function cache(ttlMs = 1000, max = 100) {
  let now = 0;
  const c = new SessionCache(ttlMs, max, () => now);
  return { c, advance: (ms: number) => (now += ms) };
}

describe('SessionCache', () => {
  it('remembers a check for its time to live, not after', () => {
    const { c, advance } = cache(1000);
    c.set('token-a', A);
    advance(999);
    expect(c.get('token-a')).toEqual(A);
    advance(1);
    expect(c.get('token-a')).toBeUndefined();
    expect(c.get('never-seen')).toBeUndefined();
  });

  it('forgets one session on a logout, and every session of a user on a reset', () => {
    const { c } = cache();
    c.set('t1', A);
    c.set('t2', A2);
    c.set('t3', B);
    c.revoke({ sessionId: 'session-a1' });
    expect([c.get('t1'), c.get('t2'), c.get('t3')]).toEqual([undefined, A2, B]);
    c.revoke({ userId: 'user-a' });
    expect([c.get('t2'), c.get('t3')]).toEqual([undefined, B]);
  });

  it('forgets everything and remembers nothing while cut off from NATS (a revocation could be missed)', () => {
    const { c } = cache();
    c.set('t1', A);
    c.setConnected(false);
    expect(c.get('t1')).toBeUndefined();
    c.set('t1', A);
    expect(c.size).toBe(0);
    c.setConnected(true);
    c.set('t1', A);
    expect(c.get('t1')).toEqual(A);
  });

  it('holds at most its bound, dropping the oldest', () => {
    const { c } = cache(1000, 2);
    c.set('t1', A);
    c.set('t2', A2);
    c.set('t3', B);
    expect(c.size).toBe(2);
    expect(c.get('t1')).toBeUndefined();
    expect(c.get('t3')).toEqual(B);
  });

  it('remembers nothing with a time to live of 0', () => {
    const { c } = cache(0);
    c.set('t1', A);
    expect(c.get('t1')).toBeUndefined();
  });
});
