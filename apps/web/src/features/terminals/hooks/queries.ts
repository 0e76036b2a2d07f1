/** A terminal's inbox through TanStack Query: one key per page; deleting a share reloads the inbox. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteShare, listInbox } from '../api';

export const terminalKeys = {
  all: ['terminals'] as const,
  inbox: (id: string) => [...terminalKeys.all, id, 'inbox'] as const,
  /** `count` is the terminal's share count as the list knows it: a new share there loads the page again. */
  inboxPage: (id: string, offset: number, count: number) => [...terminalKeys.inbox(id), offset, count] as const,
};

export const useInbox = (id: string, offset: number, limit: number, count: number) =>
  useQuery({
    queryKey: terminalKeys.inboxPage(id, offset, count),
    queryFn: () => listInbox(id, offset, limit),
    placeholderData: keepPreviousData,
  });

export function useDeleteShare(terminalId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (shareId: string) => deleteShare(terminalId, shareId),
    onSuccess: () => client.invalidateQueries({ queryKey: terminalKeys.inbox(terminalId) }),
  });
}
