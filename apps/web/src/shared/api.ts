/**
 * The one way the web app calls the gateway (/v1): JSON in and out, the bearer token added where
 * one exists, and failures turned into ApiError (the server answered with the spec's envelope or a
 * status) or NetworkError (no answer at all) so callers can tell the two apart (spec section 4).
 */

export interface ErrorBody {
  success: false;
  error: string;
  detail?: string;
  key?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly detail?: string,
    readonly key?: string,
  ) {
    super(detail ? `${error} - ${detail}` : error);
    this.name = 'ApiError';
  }
}

export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('The server could not be reached. Check your connection and try again.', { cause });
    this.name = 'NetworkError';
  }
}

export interface CallOptions {
  body?: unknown;
  token?: string | null;
  signal?: AbortSignal;
}

function isErrorBody(body: unknown): body is ErrorBody {
  return (
    Boolean(body) &&
    typeof body === 'object' &&
    (body as { success?: unknown }).success === false &&
    typeof (body as { error?: unknown }).error === 'string'
  );
}

/** Calls the gateway; resolves with the parsed body of a 2xx answer (undefined for 204). */
export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new NetworkError(error);
  }
  if (response.status === 204) return undefined as T;
  const body: unknown = await response.json().catch(() => undefined);
  if (isErrorBody(body)) throw new ApiError(response.status, body.error, body.detail, body.key);
  if (!response.ok) throw new ApiError(response.status, 'HTTP_' + response.status, response.statusText || undefined);
  return body as T;
}

/** The displayed error text (spec section 8): the server's error, with ' - ' and detail appended if present. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError || error instanceof NetworkError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
