/**
 * The one catalogue of error codes (docs/api.md#errors, docs/architecture.md#contracts-and-errors).
 * Every error on the wire is `{ success: false, error: CODE, detail: text }`.
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  /** The request is not valid HTTP (answered before it reaches a route). */
  BAD_REQUEST: 400,
  /** A webhook whose signature does not verify (forged, altered, or too old). */
  SIGNATURE_INVALID: 400,
  INVALID_TOKEN: 401,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  /** A URL the server will not fetch: not http(s), credentials in it, or an address inside the network (SSRF guard). */
  URL_NOT_ALLOWED: 403,
  IDENTIFIER_NOT_FOUND: 404,
  /** A link or code from an email or a URL (verification, password reset, impersonate/tokenswap) that was used, has expired or never existed. */
  LINK_INVALID: 410,
  /** A stored result whose time is up (a conversion result after its expiry). */
  EXPIRED: 410,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  EMAIL_IN_USE: 409,
  PAYLOAD_TOO_LARGE: 413,
  /** Saving this file would take the account past its storage quota (FILES_QUOTA_BYTES). */
  QUOTA_EXCEEDED: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  /** The payment provider says the seller's account does not exist or cannot take charges. */
  ACCOUNT_INVALID: 422,
  RATE_LIMITED: 429,
  /** The conversion queue holds as many jobs as it may; try again after Retry-After. */
  QUEUE_FULL: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  /** A server this one fetched from answered an error status, or redirected too often. */
  UPSTREAM_ERROR: 502,
  UNAVAILABLE: 503,
  /** No live conversion worker has the engine this conversion needs (LibreOffice, Chromium...); the detail names it. */
  ENGINE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);
}

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

/** The wire form of every error. */
export interface ErrorEnvelope {
  success: false;
  error: string;
  detail?: string;
  /** Present on 500s: the id written in the log next to the failure. */
  errorId?: string;
  /** A message key the web app translates (e.g. error_email_in_use_internal). */
  key?: string;
}

/** What a service sends back over NATS when a handler fails with a known error. */
export interface RpcErrorPayload {
  code: ErrorCode;
  detail: string;
  key?: string;
  /** RATE_LIMITED: seconds until a new try may succeed (the gateway's Retry-After header). */
  retryAfterSeconds?: number;
}

export function isRpcErrorPayload(value: unknown): value is RpcErrorPayload {
  return (
    typeof value === 'object' &&
    value !== null &&
    isErrorCode((value as { code?: unknown }).code) &&
    typeof (value as { detail?: unknown }).detail === 'string'
  );
}

/**
 * A typed error a service (or the gateway) throws for a known failure. It crosses NATS intact
 * as an RpcErrorPayload and the gateway maps it to the HTTP status of its code.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly key?: string,
    /** RATE_LIMITED: seconds until a new try may succeed; the gateway sends it as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'AppError';
  }

  /** 429 RATE_LIMITED with the wait the client must respect (whole seconds, at least 1). */
  static rateLimited(detail: string, retryAfterSeconds: number): AppError {
    return new AppError('RATE_LIMITED', detail, undefined, Math.max(1, Math.ceil(retryAfterSeconds)));
  }

  static fromPayload(payload: RpcErrorPayload): AppError {
    return new AppError(payload.code, payload.detail, payload.key, payload.retryAfterSeconds);
  }

  get status(): number {
    return statusOf(this.code);
  }

  toPayload(): RpcErrorPayload {
    return {
      code: this.code,
      detail: this.detail,
      ...(this.key ? { key: this.key } : {}),
      ...(this.retryAfterSeconds !== undefined ? { retryAfterSeconds: this.retryAfterSeconds } : {}),
    };
  }
}
