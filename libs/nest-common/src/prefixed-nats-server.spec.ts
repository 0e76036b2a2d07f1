import { describe, expect, it } from '@jest/globals';
import { PrefixedNatsServer } from './prefixed-nats-server.js';

describe('PrefixedNatsServer routes', () => {
  const server = new PrefixedNatsServer('t1', { servers: 'nats://127.0.0.1:4222' });

  it('routes a plain subject without trying it as JSON, under the prefix once', () => {
    const parse = JSON.parse;
    let parsed = 0;
    JSON.parse = ((...args: Parameters<typeof parse>) => (parsed++, parse(...args))) as typeof parse;
    try {
      expect(server.getRouteFromPattern('commerce.product.list')).toBe('t1.commerce.product.list');
      expect(server.getRouteFromPattern('t1.commerce.product.list')).toBe('t1.commerce.product.list');
    } finally {
      JSON.parse = parse;
    }
    expect(parsed).toBe(0);
  });

  it('still reads a pattern that is JSON as Nest does', () => {
    expect(server.getRouteFromPattern('{"cmd":"sum"}')).toBe('t1.{"cmd":"sum"}');
    expect(server.getRouteFromPattern('"quoted"')).toBe('t1.quoted');
  });
});
