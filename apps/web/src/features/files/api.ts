/**
 * Saved files ("my files"): the list, download and delete calls of /v1/files through the typed client.
 * Saving a file (used by the tools too) is shared/my-files.ts.
 */
import { unwrap, v1 } from '../../shared/api';

export const listFiles = (offset = 0, limit = 50) => unwrap(v1.GET('/v1/files', { params: { query: { offset, limit } } }));

export const deleteFile = (id: string) => unwrap(v1.DELETE('/v1/files/{id}', { params: { path: { id } } }));

/** A short-lived signed URL that downloads the file under its name. */
export const fileDownloadUrl = async (id: string): Promise<string> =>
  (await unwrap(v1.GET('/v1/files/{id}/download', { params: { path: { id } } }))).url;
