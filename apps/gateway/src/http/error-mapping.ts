import { HttpException } from '@nestjs/common';
import { AppError, type ErrorEnvelope, isErrorCode, statusOf } from '@tinkerdesk/contracts';
import { isDependencyUnavailable, unavailableDependency } from '@tinkerdesk/nest-common';

export interface MappedError {
  status: number;
  body: ErrorEnvelope;
  /** Response headers that belong to the error (Retry-After of a 429). */
  headers?: Record<string, string>;
  /** Set when the failure is unexpected: the body only carries its id, the log has the rest. */
  unexpected?: unknown;
  /** Set when a dependency of the gateway itself (Redis) could not be reached. */
  unreachable?: unknown;
  /** A 503's cause, for the one warning line the request logs: what was unavailable (dependencyOf). */
  dependency?: string;
}

/** What an AppError's detail says was unavailable (the RPC client's, safe-fetch's, the gateway's own wordings). */
const DEPENDENCY_IN_DETAIL: Array<[RegExp, string | ((m: RegExpExecArray) => string)]> = [
  [/^the ([\w-]+) service (is not available|did not answer)/, (m) => m[1] ?? 'a service'],
  [/message bus|NATS|live events/, 'nats'],
  [/limit counters/, 'redis'],
  [/file store/, 'file store'],
  [/\(engine ([\w-]+)\)/, (m) => `engine ${m[1] ?? ''}`],
  [/gateway is stopping/, 'gateway (stopping)'],
  [/web app is not built/, 'web app build'],
  [/^(\S+) (could not be resolved|did not answer within|could not be reached)/, (m) => m[1] ?? 'a remote host'],
  // A service's own dependency (its database...) was down: the service logged which.
  [/^this part of the service is not available/, 'a service dependency'],
];

/** The name of what a 503 waited on, for its log line ("identity", "redis", "nats", "127.0.0.1:6379"...). */
export function dependencyOf(error: unknown): string {
  if (error instanceof AppError) {
    for (const [pattern, name] of DEPENDENCY_IN_DETAIL) {
      const m = pattern.exec(error.detail);
      if (m) return typeof name === 'string' ? name : name(m);
    }
    return 'unknown';
  }
  return unavailableDependency(error) ?? 'unknown';
}

const HTTP_CODE_BY_STATUS: Record<number, ErrorEnvelope['error']> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE',
  429: 'RATE_LIMITED',
  503: 'UNAVAILABLE',
};

/** body-parser and multer errors carry a `type` or `code` and a status. */
interface TransportError {
  type?: string;
  code?: string;
  status?: number;
  statusCode?: number;
  message?: string;
  field?: string;
}

function transportError(error: unknown): MappedError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as TransportError;
  if (e.type === 'entity.parse.failed') {
    return { status: 400, body: { success: false, error: 'MALFORMED_JSON', detail: 'the request body is not valid JSON' } };
  }
  if (e.type === 'entity.too.large' || e.code === 'LIMIT_FILE_SIZE') {
    return {
      status: 413,
      body: { success: false, error: 'PAYLOAD_TOO_LARGE', detail: 'the request body is larger than this server accepts' },
    };
  }
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
    return { status: 415, body: { success: false, error: 'UNSUPPORTED_MEDIA_TYPE', detail: e.message ?? 'unsupported encoding' } };
  }
  if (typeof e.code === 'string' && e.code.startsWith('LIMIT_')) {
    return {
      status: 400,
      body: {
        success: false,
        error: 'VALIDATION_FAILED',
        detail: `${e.message ?? 'upload limit reached'}${e.field ? ` (${e.field})` : ''}`,
      },
    };
  }
  if (e.type === 'request.aborted') {
    return { status: 400, body: { success: false, error: 'VALIDATION_FAILED', detail: 'the request was aborted' } };
  }
  return undefined;
}

/** One table from any failure to the error envelope (docs/api.md#errors) and an HTTP status. */
export function mapError(error: unknown, errorId: string): MappedError {
  if (error instanceof AppError) {
    const body: ErrorEnvelope = { success: false, error: error.code, detail: error.detail };
    if (error.key) body.key = error.key;
    const headers = error.retryAfterSeconds !== undefined ? { 'retry-after': String(error.retryAfterSeconds) } : undefined;
    const status = statusOf(error.code);
    return { status, body, ...(headers ? { headers } : {}), ...(status === 503 ? { dependency: dependencyOf(error) } : {}) };
  }
  // Nest wraps body-parser's errors in an HttpException whose cause is the original.
  const transport = transportError(error) ?? (error instanceof Error ? transportError(error.cause) : undefined);
  if (transport) return transport;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code = HTTP_CODE_BY_STATUS[status];
    if (code && status < 500) {
      const response = error.getResponse();
      const message =
        typeof response === 'object' && response !== null && 'message' in response
          ? (response as { message: unknown }).message
          : error.message;
      const detail = Array.isArray(message) ? message.join('; ') : String(message);
      return { status, body: { success: false, error: isErrorCode(code) ? code : 'VALIDATION_FAILED', detail } };
    }
  }
  // Redis (rate limits, conversion files, queues) or another server the gateway talks to itself is down:
  // the caller may retry shortly, as when a service does not answer.
  if (isDependencyUnavailable(error)) {
    return {
      status: 503,
      body: {
        success: false,
        error: 'UNAVAILABLE',
        detail: `this part of the service is not available right now; try again shortly (error id ${errorId})`,
      },
      unreachable: error,
      dependency: dependencyOf(error),
    };
  }
  return {
    status: 500,
    body: { success: false, error: 'INTERNAL', detail: `an unexpected error occurred (error id ${errorId})`, errorId },
    unexpected: error,
  };
}
