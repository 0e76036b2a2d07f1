/**
 * Saved files through TanStack Query: the first `limit` files with the quota (one key per length shown,
 * the previous list kept while a longer one loads), a download (a signed URL fetched, then opened) and
 * a delete, which reloads the list before it settles.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavedFileView } from '@tinkerdesk/contracts/web';
import { reload } from '../../shared/query';
import { useSession } from '../../shared/session/session';
import { deleteFile, fileDownloadUrl, listFiles } from './api';

export const fileKeys = {
  all: ['files'] as const,
  list: (limit: number) => [...fileKeys.all, 'list', limit] as const,
};

export function useMyFiles(limit: number) {
  const { token } = useSession();
  return useQuery({
    queryKey: fileKeys.list(limit),
    queryFn: async () => {
      const { success: _ok, ...answer } = await listFiles(0, limit);
      return answer;
    },
    enabled: Boolean(token),
    placeholderData: keepPreviousData,
  });
}

/** Opens a signed download URL: the storage answers the file as an attachment under its name. */
function openDownload(url: string, filename: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

export const useDownloadFile = () =>
  useMutation({ mutationFn: async (file: SavedFileView) => openDownload(await fileDownloadUrl(file.id), file.filename) });

export function useDeleteFile() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (file: SavedFileView) => deleteFile(file.id), onSuccess: () => reload(client, fileKeys.all) });
}
