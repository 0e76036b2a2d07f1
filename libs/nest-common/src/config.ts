/**
 * Environment configuration, validated at boot. Each service declares its schema once (config.ts)
 * and nothing else reads process.env. A missing or wrong value throws ConfigError, whose message is
 * one line naming the variable; `failFast` prints it and stops the process.
 */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Configuration error: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export interface Field<T> {
  parse(variable: string, raw: string | undefined): T;
}

function field<T>(fallback: T | undefined, convert: (variable: string, raw: string) => T): Field<T> {
  return {
    parse(variable, raw) {
      if (raw === undefined || raw.trim() === '') {
        if (fallback === undefined) throw new ConfigError(variable, 'is required but not set');
        return fallback;
      }
      return convert(variable, raw.trim());
    },
  };
}

export const env = {
  str: (fallback?: string): Field<string> => field(fallback, (_v, raw) => raw),
  optionalStr: (): Field<string | undefined> => ({
    parse: (_variable, raw) => (raw === undefined || raw.trim() === '' ? undefined : raw.trim()),
  }),
  int: (fallback: number | undefined, min: number, max: number): Field<number> =>
    field(fallback, (variable, raw) => {
      if (!/^-?\d+$/.test(raw)) throw new ConfigError(variable, `must be a whole number (got "${raw}")`);
      const value = Number(raw);
      if (value < min || value > max) throw new ConfigError(variable, `must be between ${min} and ${max} (got ${raw})`);
      return value;
    }),
  port: (fallback?: number): Field<number> => env.int(fallback, 0, 65535),
  url: (fallback: string | undefined, protocols: string[]): Field<string> =>
    field(fallback, (variable, raw) => {
      let parsed: URL;
      try {
        parsed = new URL(raw);
      } catch {
        throw new ConfigError(variable, `must be a URL such as ${protocols[0]}//host:port (got "${raw}")`);
      }
      if (!protocols.includes(parsed.protocol)) {
        throw new ConfigError(variable, `must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
      }
      return raw;
    }),
  oneOf: <T extends string>(fallback: T, values: readonly T[]): Field<T> =>
    field(fallback, (variable, raw) => {
      if (!(values as readonly string[]).includes(raw)) {
        throw new ConfigError(variable, `must be one of ${values.join(', ')} (got "${raw}")`);
      }
      return raw as T;
    }),
  /** Letters, digits, '-' and '_' only: safe inside a NATS subject, a Redis key or a schema name. */
  token: (fallback: string): Field<string> =>
    field(fallback, (variable, raw) => {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(raw)) {
        throw new ConfigError(variable, `may contain only letters, digits, '-' and '_' (got "${raw}")`);
      }
      return raw;
    }),
};

export type Schema = Record<string, Field<unknown>>;
export type ConfigOf<S extends Schema> = { readonly [K in keyof S]: S[K] extends Field<infer T> ? T : never };

/** A rule across several variables (one set needs another); throws ConfigError naming the variable. */
export type ConfigCheck<S extends Schema> = (config: ConfigOf<S>) => void;

export function loadConfig<S extends Schema>(schema: S, source: Env = process.env, check?: ConfigCheck<S>): ConfigOf<S> {
  const out: Record<string, unknown> = {};
  for (const [variable, f] of Object.entries(schema)) out[variable] = f.parse(variable, source[variable]);
  const config = Object.freeze(out) as ConfigOf<S>;
  check?.(config);
  return config;
}

/** Loads the config or prints the one-line reason and exits with status 78 (EX_CONFIG). */
export function loadConfigOrExit<S extends Schema>(schema: S, source: Env = process.env, check?: ConfigCheck<S>): ConfigOf<S> {
  try {
    return loadConfig(schema, source, check);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
}

/** The variables every process shares. */
export const commonSchema = {
  NODE_ENV: env.oneOf('development', ['development', 'production', 'test'] as const),
  LOG_LEVEL: env.oneOf('info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
  NATS_URL: env.url('nats://localhost:4222', ['nats:', 'tls:']),
  NATS_PREFIX: env.str(''),
  /**
   * On SIGTERM, how long a process waits for what it has in hand (requests, a gateway's open connections)
   * before it closes anyway; `npm start` kills what is still running 10 s after its SIGTERM.
   */
  SHUTDOWN_GRACE_MS: env.int(8000, 0, 120_000),
};

export const databaseSchema = {
  DATABASE_URL: env.url('postgres://postgres@localhost:5432/tinkerdesk', ['postgres:', 'postgresql:']),
};

export const redisSchema = {
  REDIS_URL: env.url('redis://localhost:6379', ['redis:', 'rediss:']),
  REDIS_PREFIX: env.token('tinkerdesk'),
};
