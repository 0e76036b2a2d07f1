import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '@tinkerdesk/nest-common';
import { schema } from './config.js';

describe('gateway configuration', () => {
  it('trusts no proxy, shows no health detail and keeps the limits as written by default', () => {
    expect(loadConfig(schema, {})).toMatchObject({ TRUST_PROXY: [], HEALTH_TOKEN: undefined, RATE_LIMIT_FACTOR: 1 });
  });

  it('reads TRUST_PROXY as addresses, CIDR blocks and Express range names', () => {
    const config = loadConfig(schema, { TRUST_PROXY: ' 10.0.0.1, 10.244.0.0/16 ,fd00::/8, loopback' });
    expect(config.TRUST_PROXY).toEqual(['10.0.0.1', '10.244.0.0/16', 'fd00::/8', 'loopback']);
  });

  it('refuses anything else in TRUST_PROXY, naming the variable', () => {
    for (const bad of ['true', '*', '10.0.0.0/33', 'proxy.example.com', '10.0.0.1/8/8', 'fd00::/129']) {
      expect(() => loadConfig(schema, { TRUST_PROXY: bad })).toThrow(ConfigError);
      expect(() => loadConfig(schema, { TRUST_PROXY: bad })).toThrow(`Configuration error: TRUST_PROXY must list IP addresses`);
    }
  });

  it('wants a HEALTH_TOKEN long enough to be a secret', () => {
    expect(() => loadConfig(schema, { HEALTH_TOKEN: 'short' })).toThrow(
      'Configuration error: HEALTH_TOKEN must be at least 16 characters long',
    );
    expect(loadConfig(schema, { HEALTH_TOKEN: 'a'.repeat(16) }).HEALTH_TOKEN).toBe('a'.repeat(16));
  });
});
