/**
 * Saving to "my files", for every tool and page that offers it: the declaration through /v1/files and
 * the PUT of the bytes to the signed storage URL the server hands out (spec: "PUT to a signed storage
 * URL, private; 200 means success"). XHR for that PUT, because fetch reports no upload progress.
 */
import type { SavedFileView } from '@tinkerdesk/contracts/web';
import { ApiError, NetworkError, unwrap, v1 } from './api';

/** The media type a file is declared with: its own when it is a plain type/subtype, else a neutral one. */
function mediaTypeOf(blob: Blob): string {
  const bare = blob.type.split(';')[0]?.trim() ?? '';
  return /^[\w.+-]+\/[\w.+-]+$/.test(bare) ? bare : 'application/octet-stream';
}

function putToSignedUrl(url: string, headers: Record<string, string>, blob: Blob, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new NetworkError(new Error('the upload to storage failed')));
    xhr.onload = () => {
      // Spec: 200 means success.
      if (xhr.status === 200) return resolve();
      let body: { error?: string; detail?: string } | undefined;
      try {
        body = JSON.parse(xhr.responseText) as { error?: string; detail?: string };
      } catch {
        body = undefined;
      }
      reject(new ApiError(xhr.status, body?.error ?? `STORAGE_${xhr.status}`, body?.detail ?? 'the storage did not accept the file'));
    };
    xhr.send(blob);
  });
}

/** Saves `blob` to the signed-in user's files: declare it, PUT it to the signed URL, confirm it. */
export async function saveToMyFiles(
  blob: Blob,
  filename: string,
  onProgress: (fraction: number) => void = () => undefined,
): Promise<SavedFileView> {
  const mediaType = mediaTypeOf(blob);
  const typed = blob.type === mediaType ? blob : new Blob([blob], { type: mediaType });
  const { file, upload } = await unwrap(
    v1.POST('/v1/files', { body: { filename: filename.slice(0, 255) || 'file', mediaType, size: typed.size } }),
  );
  await putToSignedUrl(upload.url, upload.headers, typed, onProgress);
  return (await unwrap(v1.POST('/v1/files/{id}/complete', { params: { path: { id: file.id } } }))).file;
}
