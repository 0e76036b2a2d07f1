/**
 * The wallet pass tool's server data through TanStack Query: a page of the user's passes (one key per
 * page, sort and order; the page shown stays while the next loads), and saving, opening and deleting a
 * pass. Saving and deleting reload the list.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { reload } from '../../shared/query';
import { deletePass, getPass, listPasses, savePass, type PassSort, type SortDirection } from './api';
import type { PassFields } from './draft';
import type { ImageSlot } from './images';

export const passKeys = {
  all: ['passes'] as const,
  list: (query: PassQuery) => [...passKeys.all, 'list', query] as const,
};

export interface PassQuery {
  limit: number;
  offset: number;
  sort: PassSort;
  dir: SortDirection;
}

export const usePasses = (query: PassQuery) =>
  useQuery({ queryKey: passKeys.list(query), queryFn: () => listPasses(query), placeholderData: keepPreviousData });

/** Reloads the list of passes without waiting for it. */
function useReloadPasses(): () => void {
  const client = useQueryClient();
  return () => void reload(client, passKeys.all);
}

export interface PassUpload {
  id: string;
  fields: PassFields;
  files: Partial<Record<ImageSlot, Blob>>;
  remove: ImageSlot[];
}

export function useSavePass() {
  const reloadPasses = useReloadPasses();
  return useMutation({
    mutationFn: ({ id, fields, files, remove }: PassUpload) => savePass(id, fields, files, remove),
    onSuccess: reloadPasses,
  });
}

/** A pass read again from the server, to edit it. */
export const useOpenPass = () => useMutation({ mutationFn: getPass });

export function useDeletePass() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deletePass, onSuccess: () => reload(client, passKeys.all) });
}
