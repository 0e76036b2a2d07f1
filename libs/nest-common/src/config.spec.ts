import { describe, expect, it } from '@jest/globals';
import { commonSchema, ConfigError, databaseSchema, env, loadConfig, redisSchema } from './config.js';

const schema = { ...commonSchema, ...databaseSchema, ...redisSchema, PORT: env.port(8080), LIMIT: env.int(10, 1, 100) };

function error(source: Record<string, string>): string {
  try {
    loadConfig(schema, source);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('uses the working local defaults', () => {
    const config = loadConfig(schema, {});
    expect(config).toMatchObject({
      NATS_URL: 'nats://localhost:4222',
      DATABASE_URL: 'postgres://postgres@localhost:5432/tinkerdesk',
      REDIS_URL: 'redis://localhost:6379',
      PORT: 8080,
      LOG_LEVEL: 'info',
      NATS_PREFIX: '',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads and converts values', () => {
    expect(loadConfig(schema, { PORT: '9000', LIMIT: ' 42 ', LOG_LEVEL: 'debug' })).toMatchObject({
      PORT: 9000,
      LIMIT: 42,
      LOG_LEVEL: 'debug',
    });
  });

  it('fails with one line naming the variable', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ PORT: 'eighty' }, 'Configuration error: PORT must be a whole number (got "eighty")'],
      [{ PORT: '70000' }, 'Configuration error: PORT must be between 0 and 65535 (got 70000)'],
      [{ NATS_URL: 'localhost' }, 'Configuration error: NATS_URL must be a URL such as nats://host:port (got "localhost")'],
      [{ DATABASE_URL: 'mysql://x@y/z' }, 'Configuration error: DATABASE_URL must use postgres: or postgresql: (got "mysql:")'],
      [{ LOG_LEVEL: 'loud' }, 'Configuration error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")'],
      [{ REDIS_PREFIX: 'a b' }, "Configuration error: REDIS_PREFIX may contain only letters, digits, '-' and '_' (got \"a b\")"],
    ];
    for (const [source, message] of cases) {
      const text = error(source);
      expect(text).toBe(message);
      expect(text).not.toContain('\n');
    }
  });

  it('applies a rule across variables after parsing them', () => {
    const pair = { A: env.optionalStr(), B: env.optionalStr() };
    const bothOrNone = (c: { A: string | undefined; B: string | undefined }): void => {
      if (c.A !== undefined && c.B === undefined) throw new ConfigError('B', 'is required when A is set');
    };
    expect(loadConfig(pair, { A: 'x', B: 'y' }, bothOrNone)).toEqual({ A: 'x', B: 'y' });
    expect(() => loadConfig(pair, { A: 'x' }, bothOrNone)).toThrow('Configuration error: B is required when A is set');
  });

  it('requires variables without a default', () => {
    expect(() => loadConfig({ SECRET: env.str() }, {})).toThrow('Configuration error: SECRET is required but not set');
  });
});
