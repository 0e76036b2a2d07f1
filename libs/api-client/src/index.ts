/**
 * The typed client of the Tinkerdesk /v1 API, for the web app and for integrators. Its types are
 * generated from the gateway's OpenAPI document (`schema.ts`, by openapi-typescript); the calls are
 * openapi-fetch's, so a path, a parameter, a body or a use of an answer that the document does not
 * allow does not compile.
 *
 * ```ts
 * const api = createApiClient({ baseUrl: 'https://tinkerdesk.example', token: () => myToken });
 * const me = await unwrap(api.GET('/v1/users/me', { params: { query: { include: 'services' } } }));
 * ```
 *
 * Every failure becomes an `ApiError` (the server answered: `status`, `error` code, `detail`) or a
 * `NetworkError` (no answer at all).
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { keyedFetch } from './retries.js';
import type { components, paths } from './schema.js';

export { isKeyedCreate, isKeyedPath, KEYED_ROUTES, keyedFetch, RETRY_DELAYS_MS } from './retries.js';

export type { components, operations, paths } from './schema.js';

/** Every documented body, by component name (`AccountResponse`, `ConversionJobView`, `ErrorEnvelope`...). */
export type ApiSchemas = components['schemas'];

export type ApiClient = Client<paths>;

/** A /v1 path of the document (a key of `paths`, with its `{placeholders}`). */
export type ApiPath = keyof paths;

/** The error envelope of every failure (docs/api.md#errors). */
export interface ErrorBody {
  success: false;
  error: string;
  detail?: string;
  key?: string;
  errorId?: string;
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

export function isErrorBody(body: unknown): body is ErrorBody {
  return (
    Boolean(body) &&
    typeof body === 'object' &&
    (body as { success?: unknown }).success === false &&
    typeof (body as { error?: unknown }).error === 'string'
  );
}

/** The ApiError of a failed answer: the envelope when there is one, otherwise `HTTP_<status>`. */
export function apiErrorOf(response: Response, body: unknown): ApiError {
  if (isErrorBody(body)) return new ApiError(response.status, body.error, body.detail, body.key);
  return new ApiError(response.status, `HTTP_${response.status}`, response.statusText || undefined);
}

export interface ApiClientOptions {
  /** Where the gateway is: '' (the default) for the same origin in a browser; an absolute URL elsewhere. */
  baseUrl?: string;
  /** The session token added as `Authorization: Bearer` to every call that has none of its own. */
  token?: string | (() => string | null | undefined);
  /** Another fetch (tests, instrumentation). */
  fetch?: (request: Request) => Promise<Response>;
  /** The waits before the retries of a create after a network failure or a 503 (retries.ts; [] for none). */
  retryDelaysMs?: readonly number[];
}

/** The headers that send `token` with one call (or none without a token). */
export function bearer(token: string | null | undefined): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  // The global fetch as it is now (tests install theirs before the client is made).
  const globalFetch = globalThis.fetch;
  const base = options.fetch ?? ((request: Request) => globalFetch.call(globalThis, request));
  const client = createClient<paths>({
    baseUrl: options.baseUrl ?? '',
    headers: { accept: 'application/json' },
    fetch: keyedFetch(base, options.retryDelaysMs ? { delaysMs: options.retryDelaysMs } : {}),
  });
  const { token } = options;
  if (token !== undefined) {
    const auth: Middleware = {
      onRequest({ request }) {
        const value = typeof token === 'function' ? token() : token;
        if (value && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${value}`);
        return request;
      },
    };
    client.use(auth);
  }
  return client;
}

interface FetchAnswer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The body of a successful call; an `ApiError` for an answer outside 2xx, a `NetworkError` when
 * nothing answered. An aborted call rejects with the AbortError itself.
 */
export async function unwrap<T>(call: Promise<FetchAnswer<T>>): Promise<T> {
  let answer: FetchAnswer<T>;
  try {
    answer = await call;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    if (error instanceof Error && error.name === 'AbortError') throw error;
    throw new NetworkError(error);
  }
  if (!answer.response.ok) throw apiErrorOf(answer.response, answer.error);
  return answer.data as T;
}
