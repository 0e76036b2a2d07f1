/**
 * Multipart uploads with progress: XHR, because fetch reports no upload progress, so these cannot go
 * through the typed client (callers still check their path against the document with `satisfies ApiPath`).
 * The answer is the JSON body when the status is the one expected; the error envelope becomes ApiError
 * and no answer at all NetworkError, as for every other call (docs/web-app.md#forms-and-error-texts).
 */
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

export function postFormWithProgress(path: string, form: FormData, options: UploadOptions): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    const token = options.token ?? currentSessionToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
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
