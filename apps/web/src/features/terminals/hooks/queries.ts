/**
 * Terminals through TanStack Query: the account's terminals with this browser's own registration
 * (one query), a terminal's inbox (one key per page), and the mutations, each of which reloads the
 * terminals (a share changes a count, a switch a state); deleting a share reloads the inbox.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ShareContentType } from '@tinkerdesk/contracts/web';
import { useEffect } from 'react';
import { deleteShare, listInbox, listTerminals, registerTerminal, shareTo, type TerminalRegistration } from '../api';
import { forgetTerminal, localTerminal, pushSubscribed, rememberTerminal, type LocalTerminal } from '../this-browser';
import { SHARE_ARRIVED_EVENT } from './useTerminalMessages';
import { reload } from '../../../shared/query';

export const terminalKeys = {
  all: ['terminals'] as const,
  overview: () => [...terminalKeys.all, 'overview'] as const,
  /** Whether this browser has a push subscription (under the overview: reloading it reads that again). */
  push: (terminalId: string) => [...terminalKeys.overview(), 'push', terminalId] as const,
  inbox: (id: string) => [...terminalKeys.all, id, 'inbox'] as const,
  /** `count` is the terminal's share count as the list knows it: a new share there loads the page again. */
  inboxPage: (id: string, offset: number, count: number) => [...terminalKeys.inbox(id), offset, count] as const,
};

/**
 * The account's terminals, which of them is this browser (a stored terminal that was removed, here or
 * elsewhere, is forgotten) and whether push is on here. The browser's own subscription is read in a
 * query of its own (its service worker may still be installing): the list does not wait for it.
 */
export function useTerminalsOverview() {
  const overview = useQuery({ queryKey: terminalKeys.overview(), queryFn: loadOverview });
  const local = overview.data?.local;
  const stored = Boolean(local && overview.data?.terminals.find((t) => t.id === local.terminalId)?.subscribed);
  const push = useQuery({ queryKey: terminalKeys.push(local?.terminalId ?? ''), queryFn: pushSubscribed, enabled: stored });
  return { ...overview, pushOn: stored && push.data === true };
}

async function loadOverview() {
  const [list, mine] = await Promise.all([listTerminals(), localTerminal()]);
  const local: LocalTerminal | null = mine && list.terminals.some((t) => t.id === mine.terminalId) ? mine : null;
  if (mine && !local) await forgetTerminal();
  return { terminals: list.terminals, local };
}

type Overview = Awaited<ReturnType<typeof loadOverview>>;

/** A share that arrives while the page is open reloads the terminals (their counts, and the open inbox with them). */
export function useReloadOnShare(): void {
  const client = useQueryClient();
  useEffect(() => {
    const refresh = () => void reload(client, terminalKeys.overview());
    window.addEventListener(SHARE_ARRIVED_EVENT, refresh);
    return () => window.removeEventListener(SHARE_ARRIVED_EVENT, refresh);
  }, [client]);
}

/** Reloads the terminals without waiting for them (the control that changed is free again at once). */
function useReloadTerminals(): () => void {
  const client = useQueryClient();
  return () => void reload(client, terminalKeys.overview());
}

/** Registers this browser and stores its terminal token here. */
export function useRegisterTerminal() {
  const reload = useReloadTerminals();
  return useMutation({
    mutationFn: async (body: TerminalRegistration) => {
      const answer = await registerTerminal(body);
      await rememberTerminal({ terminalId: answer.terminal.id, terminalToken: answer.terminalToken });
      return answer;
    },
    onSuccess: reload,
  });
}

/** What this browser knows at once after a change, before the reload confirms it. */
export type LocalChange = { local: null } | { pushOn: boolean; terminalId: string };

/**
 * Any change to the terminals (rename, push, destination, switch, removal): the work, then a reload.
 * A work that answers a local change (push switched, this browser forgotten) shows it at once.
 */
export function useTerminalChange() {
  const client = useQueryClient();
  const reload = useReloadTerminals();
  return useMutation({
    mutationFn: (work: () => Promise<LocalChange | unknown>) => work(),
    onSuccess: (change) => {
      if (isLocalChange(change)) {
        if ('pushOn' in change) client.setQueryData(terminalKeys.push(change.terminalId), change.pushOn);
        else client.setQueryData<Overview>(terminalKeys.overview(), (old) => old && { ...old, local: null });
      }
      reload();
    },
  });
}

const isLocalChange = (value: unknown): value is LocalChange =>
  typeof value === 'object' && value !== null && ('local' in value || 'pushOn' in value);

export function useShareTo() {
  const reload = useReloadTerminals();
  return useMutation({
    // Sent from this browser's terminal (when it sends, to another terminal), the share names it as its sender.
    mutationFn: ({
      target,
      from,
      ...body
    }: {
      target: string;
      from?: LocalTerminal | null;
      contentType: ShareContentType;
      content: string;
      description: string;
    }) => shareTo(target, body, from && from.terminalId !== target ? from.terminalToken : undefined),
    onSuccess: reload,
  });
}

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
    // The inbox, and the terminals (their share counts).
    onSuccess: () => reload(client, terminalKeys.all),
  });
}
