import { describe, expect, it } from '@jest/globals';
import { ServiceBreaker } from './service-breaker.js';

describe('ServiceBreaker', () => {
  it('admits every call of a service that answers', () => {
    const breaker = new ServiceBreaker(500);
    expect(breaker.admit('conversion', 0)).toBe(true);
    breaker.answered('conversion', 10);
    expect(breaker.admit('conversion', 20)).toBe(true);
  });

  it('refuses the calls of a service that let a call reach its deadline without answering anything since it was sent', () => {
    const breaker = new ServiceBreaker(500);
    breaker.answered('conversion', 0);
    breaker.timedOut('conversion', 100, 1600);
    expect(breaker.isOpen('conversion')).toBe(true);
    expect(breaker.admit('conversion', 1601)).toBe(false);
    expect(breaker.admit('conversion', 2099)).toBe(false);
    // Other services are not concerned.
    expect(breaker.admit('identity', 1601)).toBe(true);
  });

  it('ignores a deadline reached while the service answered other calls (one slow call)', () => {
    const breaker = new ServiceBreaker(500);
    breaker.answered('commerce', 900);
    breaker.timedOut('commerce', 100, 1600);
    expect(breaker.isOpen('commerce')).toBe(false);
    expect(breaker.admit('commerce', 1601)).toBe(true);
  });

  it('lets one probe through every probeMs, and refuses the others while it is on its way', () => {
    const breaker = new ServiceBreaker(500);
    breaker.timedOut('conversion', 0, 1500);
    expect(breaker.admit('conversion', 2000)).toBe(true);
    expect(breaker.admit('conversion', 2001)).toBe(false);
    // The probe reached its deadline too: still unresponsive, the next probe probeMs later.
    breaker.timedOut('conversion', 2000, 3500);
    expect(breaker.admit('conversion', 3999)).toBe(false);
    expect(breaker.admit('conversion', 4000)).toBe(true);
    // The probe met no responders: released, the next probe probeMs later.
    breaker.released('conversion', 4001);
    expect(breaker.admit('conversion', 4002)).toBe(false);
    expect(breaker.admit('conversion', 4501)).toBe(true);
  });

  it('admits every call again as soon as the service answers anything (a probe or a late reply)', () => {
    const breaker = new ServiceBreaker(500);
    breaker.timedOut('conversion', 0, 1500);
    expect(breaker.admit('conversion', 1600)).toBe(false);
    breaker.answered('conversion', 1700);
    expect(breaker.isOpen('conversion')).toBe(false);
    expect(breaker.admit('conversion', 1701)).toBe(true);
    expect(breaker.admit('conversion', 1702)).toBe(true);
  });

  it("with no interval (RpcClient's default), lets a probe through as soon as none is on its way: a retry right after a resume is sent", () => {
    const breaker = new ServiceBreaker(0);
    breaker.timedOut('terminals', 0, 1500);
    expect(breaker.admit('terminals', 1500)).toBe(true);
    expect(breaker.admit('terminals', 1501)).toBe(false); // beside the waiting probe: refused at once
    breaker.timedOut('terminals', 1500, 3000);
    expect(breaker.admit('terminals', 3000)).toBe(true);
    breaker.answered('terminals', 3010);
    expect([breaker.admit('terminals', 3011), breaker.admit('terminals', 3011)]).toEqual([true, true]);
  });
});
