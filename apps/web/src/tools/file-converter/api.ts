import type { ApiPath } from '@tinkerdesk/api-client';
import { isConversionTarget, type ConversionJobView, type ResponseMap } from '@tinkerdesk/contracts/web';
import { ApiError, unwrap, v1, type ApiSchemas } from '../../shared/api';
import { postFormWithProgress } from '../../shared/upload';

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
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set('file', file, file.name);
  return postFormWithProgress(UPLOAD_PATH, form, { token, expect: 202, onProgress, ...(signal ? { signal } : {}) }).then((body) => {
    if ('job' in (body as object)) return (body as ResponseMap['ConversionJob']).job;
    throw new ApiError(202, 'HTTP_202', 'the answer carries no job');
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

/** What the live workers can convert now (formats whose engine is missing are left out, and named in `engines.missing`). */
export const getFormats = () => unwrap(v1.GET('/v1/convert/formats'));
