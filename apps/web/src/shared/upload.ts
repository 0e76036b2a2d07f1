/**
 * Multipart uploads with progress: XHR, because fetch reports no upload progress, so these cannot go
 * through the typed client (callers still check their path against the document with `satisfies ApiPath`).
 * The answer is the JSON body when the status is the one expected; the error envelope becomes ApiError
 * and no answer at all NetworkError, as for every other call (docs/web-app.md#forms-and-error-texts).
 */
import { isKeyedPath, RETRY_DELAYS_MS } from '@tinkerdesk/api-client';
import { ApiError, currentSessionToken, NetworkError, type ErrorBody } from './api';

export interface UploadOptions {
  /** The bearer token to send; the session's by default (XHR does not pass through the client's auth middleware). */
  token?: string;
  /** The status of success (200, 201, 202). */
  expect: number;
  /** Called with the fraction (0–1) of the body sent so far. */
  onProgress: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * A multipart POST with progress. A create whose route takes an Idempotency-Key (an upload to convert)
 * carries one, made once for the call, and is sent again with the same key after a network failure or
 * a 503 (RETRY_DELAYS_MS), as the typed client does for every other create: the server answers the
 * object the first try made, if it made one, and never makes a second.
 */
export async function postFormWithProgress(path: string, form: FormData, options: UploadOptions): Promise<unknown> {
  const key = isKeyedPath(path.split('?')[0] ?? path) ? crypto.randomUUID() : undefined;
  const delays = key === undefined ? [] : RETRY_DELAYS_MS;
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= delays.length;
    try {
      return await sendForm(path, form, options, key);
    } catch (error) {
      const retryable = error instanceof NetworkError || (error instanceof ApiError && error.status === 503);
      if (last || !retryable || options.signal?.aborted) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, delays[attempt] ?? 0));
    if (options.signal?.aborted) throw new DOMException('aborted', 'AbortError');
  }
}

function sendForm(path: string, form: FormData, options: UploadOptions, key: string | undefined): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    const token = options.token ?? currentSessionToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    if (key !== undefined) xhr.setRequestHeader('idempotency-key', key);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new NetworkError(new Error('upload failed')));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status === options.expect && body && typeof body === 'object') resolve(body);
      else if (body && typeof body === 'object' && (body as ErrorBody).success === false) {
        const e = body as ErrorBody;
        reject(new ApiError(xhr.status, e.error, e.detail));
      } else reject(new ApiError(xhr.status, `HTTP_${xhr.status}`, xhr.statusText || undefined));
    };
    options.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}
