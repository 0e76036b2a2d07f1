import { describe, expect, it } from '@jest/globals';
import type { Profile } from '@tinkerdesk/contracts';
import { ProfileCache } from './profile-cache.js';

const profile = (guid: string, name: string): Profile => ({
  guid,
  name,
  tz: 'UTC',
  active: true,
  email: `${guid}@example.com`,
  verified: false,
  context: {},
});

function cache(ttlMs = 1000) {
  let now = 0;
  return { c: new ProfileCache(ttlMs, 100, () => now), advance: (ms: number) => (now += ms) };
}

describe('ProfileCache', () => {
  it('answers a remembered profile for its time to live, not after', () => {
    const { c, advance } = cache(1000);
    c.set('u1', profile('u1', 'Ada'), c.mark());
    advance(999);
    expect(c.get('u1')?.name).toBe('Ada');
    advance(1);
    expect(c.get('u1')).toBeUndefined();
  });

  it("forgets one user's profile on a change, and keeps the others", () => {
    const { c } = cache();
    c.set('u1', profile('u1', 'Ada'), c.mark());
    c.set('u2', profile('u2', 'Bob'), c.mark());
    c.forget('u1');
    expect(c.get('u1')).toBeUndefined();
    expect(c.get('u2')?.name).toBe('Bob');
  });

  it('does not keep a profile read before a change was announced (it may be the old one)', () => {
    const { c } = cache();
    const mark = c.mark();
    c.forget('u1'); // the change arrives while the read is on its way
    c.set('u1', profile('u1', 'old name'), mark);
    expect(c.get('u1')).toBeUndefined();
    c.set('u1', profile('u1', 'new name'), c.mark());
    expect(c.get('u1')?.name).toBe('new name');
  });

  it('remembers nothing while cut off from NATS, and nothing read before the cut', () => {
    const { c } = cache();
    const mark = c.mark();
    c.set('u1', profile('u1', 'Ada'), mark);
    c.setConnected(false);
    expect(c.get('u1')).toBeUndefined();
    c.setConnected(true);
    c.set('u1', profile('u1', 'Ada'), mark);
    expect(c.get('u1')).toBeUndefined();
  });

  it('is off with a time to live of 0', () => {
    const { c } = cache(0);
    c.set('u1', profile('u1', 'Ada'), c.mark());
    expect(c.get('u1')).toBeUndefined();
  });
});
