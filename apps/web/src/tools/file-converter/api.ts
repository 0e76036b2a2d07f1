import type { ConversionJobList, ConversionJobView } from '@tinkerdesk/contracts/web';
import { api, ApiError, NetworkError, type ErrorBody } from '../../shared/api';

/** The calls of the converter page: /v1/convert through the gateway, with the user's token. */

export interface JobAnswer {
  success: true;
  job: ConversionJobView;
}

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
    xhr.open('POST', '/v1/convert/upload');
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
      if (xhr.status === 202 && body && typeof body === 'object' && 'job' in body) resolve((body as JobAnswer).job);
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

export const convertUrl = (body: Record<string, unknown>, token: string) =>
  api<JobAnswer>('POST', '/v1/convert/fetch', { body, token }).then((a) => a.job);

export const getJob = (id: string, token: string, signal?: AbortSignal) =>
  api<JobAnswer>('GET', `/v1/convert/jobs/${encodeURIComponent(id)}`, { token, ...(signal ? { signal } : {}) }).then((a) => a.job);

export const listJobs = (token: string, offset = 0, limit = 10) =>
  api<ConversionJobList & { success: true }>('GET', `/v1/convert/jobs?offset=${offset}&limit=${limit}`, { token });

export const deleteJob = (id: string, token: string) =>
  api<{ success: true; state: 'cancelled' | 'deleted' }>('DELETE', `/v1/convert/jobs/${encodeURIComponent(id)}`, { token });

/** The converted file of a completed job. */
export async function downloadResult(id: string, token: string): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(`/v1/convert/jobs/${encodeURIComponent(id)}/result`, { headers: { authorization: `Bearer ${token}` } });
  } catch (error) {
    throw new NetworkError(error);
  }
  if (response.ok) return response.blob();
  const body = (await response.json().catch(() => undefined)) as ErrorBody | undefined;
  throw new ApiError(response.status, body?.error ?? `HTTP_${response.status}`, body?.detail);
}
