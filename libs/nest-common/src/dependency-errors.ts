/**
 * Whether a failure means a dependency (PostgreSQL, Redis, a socket to another server) cannot be
 * reached right now, rather than a bug: such a failure is answered 503 UNAVAILABLE, never 500.
 * Looks through the wrappers drivers put around the cause (TypeORM's driverError, Error.cause,
 * AggregateError's errors from a connect to several addresses).
 */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs of a server that cannot serve now: class 08 (connection exception),
 * 53300 too_many_connections, 57P01–57P03 (shutdown, crash, cannot connect now), 57P05 (idle session timeout).
 */
const POSTGRES_UNAVAILABLE = /^(08...|53300|57P0[1235])$/;

/** What node-postgres and ioredis say when their pool or socket gives up, without a code; and which it was. */
const DRIVER_MESSAGES: Array<[RegExp, 'postgresql' | 'redis']> = [
  [/^Connection terminated/, 'postgresql'],
  [/timeout exceeded when trying to connect/, 'postgresql'],
  [/^Client has encountered a connection error/, 'postgresql'],
  [/^Connection is closed/, 'redis'],
  [/Cannot use a pool after calling end/, 'postgresql'],
  // ioredis: a command tried on a connection that is down (maxRetriesPerRequest, offline queue off).
  [/^Reached the max retries per request limit/, 'redis'],
  [/^Stream isn't writeable/, 'redis'],
];

/** Error classes of the drivers that only ever mean "not reachable now". */
const DRIVER_NAMES = new Map([['MaxRetriesPerRequestError', 'redis']]);

export function isDependencyUnavailable(error: unknown): boolean {
  return unavailableDependency(error) !== undefined;
}

/**
 * What could not be reached, when isDependencyUnavailable: `postgresql`, `redis`, or the address of a
 * refused socket (`127.0.0.1:6379`, else its code); undefined for any other failure (for log lines).
 */
export function unavailableDependency(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== 'object' || error === null) return undefined;
  const e = error as {
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
    address?: unknown;
    port?: unknown;
  };
  if (typeof e.code === 'string' && POSTGRES_UNAVAILABLE.test(e.code)) return 'postgresql';
  const driver =
    (error instanceof Error ? DRIVER_NAMES.get(error.name) : undefined) ??
    DRIVER_MESSAGES.find(([pattern]) => typeof e.message === 'string' && pattern.test(e.message))?.[1];
  if (driver) return driver;
  const inner = [...(Array.isArray(e.errors) ? e.errors : []), e.driverError, e.cause]
    .map((x) => unavailableDependency(x, depth + 1))
    .find((x) => x !== undefined);
  if (inner) return inner;
  if (typeof e.code === 'string' && SOCKET_CODES.has(e.code)) {
    if (typeof e.address !== 'string') return e.code;
    return typeof e.port === 'number' ? `${e.address}:${e.port}` : e.address;
  }
  return undefined;
}
