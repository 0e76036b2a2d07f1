/** What `fetchAnswer` answers: the status, the parsed JSON body (empty otherwise), the headers and the raw bytes. */
export interface FetchAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
  bytes: Buffer;
}

export interface FetchOptions {
  token?: string;
  /** A multipart body (uploads). */
  form?: FormData;
  /** A JSON body. */
  json?: unknown;
  headers?: Record<string, string>;
}

/** A call to the platform's gateway through fetch, for answers that are not JSON (images) or bodies that are multipart. */
export async function fetchAnswer(baseUrl: string, method: string, path: string, options: FetchOptions = {}): Promise<FetchAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(options.form ? { body: options.form } : options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = res.headers.get('content-type')?.includes('application/json') && bytes.length > 0;
  return {
    status: res.status,
    body: (json ? JSON.parse(bytes.toString('utf8')) : {}) as Record<string, unknown>,
    headers: res.headers,
    bytes,
  };
}
