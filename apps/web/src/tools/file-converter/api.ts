import type { ApiPath } from '@tinkerdesk/api-client';
import { isConversionTarget, type ConversionJobView, type ResponseMap } from '@tinkerdesk/contracts/web';
import { ApiError, NetworkError, unwrap, v1, type ApiSchemas, type ErrorBody } from '../../shared/api';

/** The calls of the converter page: /v1/convert through the typed client, with the user's token. */

/** XHR (for its upload progress) cannot go through the client; the path is still checked against the document. */
const UPLOAD_PATH = '/v1/convert/upload' satisfies ApiPath;

export type ConvertUrlBody = ApiSchemas['ConvertFetchDto'];

/**
 * Uploads one file for conversion with its fields, reporting the upload's progress (0–1): XHR,
 * because fetch has no upload progress. Resolves with the created job.
 */
export function uploadForConversion(
  file: File,
  fields: Record<string, string>,
  token: string,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<ConversionJobView> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', UPLOAD_PATH);
    xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
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
      if (xhr.status === 202 && body && typeof body === 'object' && 'job' in body) resolve((body as ResponseMap['ConversionJob']).job);
      else if (body && typeof body === 'object' && (body as ErrorBody).success === false) {
        const e = body as ErrorBody;
        reject(new ApiError(xhr.status, e.error, e.detail));
      } else reject(new ApiError(xhr.status, `HTTP_${xhr.status}`, xhr.statusText || undefined));
    };
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    form.set('file', file, file.name);
    xhr.send(form);
  });
}

/** Queues the conversion of a URL (`to` is one of the targets the page offers, `from` a SourceFormat id). */
export async function convertUrl(url: string, to: string, from: string | undefined): Promise<ConversionJobView> {
  if (!isConversionTarget(to)) throw new ApiError(400, 'VALIDATION_FAILED', `${to} is not a conversion target`);
  // The document's enum of `from` is built from SOURCE_FORMATS, where the page's ids come from too.
  const body: ConvertUrlBody = { url, to, ...(from ? { from: from as NonNullable<ConvertUrlBody['from']> } : {}) };
  return (await unwrap(v1.POST('/v1/convert/fetch', { body }))).job;
}

export const getJob = (id: string, signal?: AbortSignal) =>
  unwrap(v1.GET('/v1/convert/jobs/{id}', { params: { path: { id } }, ...(signal ? { signal } : {}) })).then((a) => a.job);

export const listJobs = (offset = 0, limit = 10) => unwrap(v1.GET('/v1/convert/jobs', { params: { query: { offset, limit } } }));

export const deleteJob = (id: string) => unwrap(v1.DELETE('/v1/convert/jobs/{id}', { params: { path: { id } } }));

/** The converted file of a completed job. */
export const downloadResult = (id: string): Promise<Blob> =>
  unwrap(v1.GET('/v1/convert/jobs/{id}/result', { params: { path: { id } }, parseAs: 'blob' }));
