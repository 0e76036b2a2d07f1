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

/** What node-postgres and ioredis say when their pool or socket gives up, without a code. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /^Client has encountered a connection error/,
  /^Connection is closed/,
  /Cannot use a pool after calling end/,
  // ioredis: a command tried on a connection that is down (maxRetriesPerRequest, offline queue off).
  /^Reached the max retries per request limit/,
  /^Stream isn't writeable/,
];

/** Error classes of the drivers that only ever mean "not reachable now". */
const DRIVER_NAMES = new Set(['MaxRetriesPerRequestError']);

export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (SOCKET_CODES.has(e.code) || POSTGRES_UNAVAILABLE.test(e.code))) return true;
  if (error instanceof Error && DRIVER_NAMES.has(error.name)) return true;
  if (typeof e.message === 'string' && DRIVER_MESSAGES.some((pattern) => pattern.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDependencyUnavailable(inner, depth + 1))) return true;
  return isDependencyUnavailable(e.driverError, depth + 1) || isDependencyUnavailable(e.cause, depth + 1);
}
