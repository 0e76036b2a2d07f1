/**
 * OAuth through TanStack Query: the consents and registered apps of /account (one query: the section
 * shows both or says what failed), an authorization request's details for the consent page, and the
 * mutations, each of which reloads the section's lists before it settles.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { reload } from '../../shared/query';
import {
  createApp,
  deleteApp,
  interactionApp,
  interactionDetails,
  listApps,
  listConsents,
  replaceSecret,
  updateApp,
  withdrawConsent,
  type AppChanges,
  type AppRegistration,
} from './api';

export const oauthKeys = {
  all: ['oauth'] as const,
  access: () => [...oauthKeys.all, 'access'] as const,
  interaction: (interaction: string) => [...oauthKeys.all, 'interaction', interaction] as const,
  asking: (interaction: string) => [...oauthKeys.all, 'asking', interaction] as const,
};

/** The apps this user allowed and the apps they registered. */
export const useOAuthAccess = () =>
  useQuery({
    queryKey: oauthKeys.access(),
    queryFn: async () => {
      const [c, a] = await Promise.all([listConsents(), listApps()]);
      return { consents: c.consents, apps: a.apps };
    },
  });

/**
 * The app asking, for the sign-in page in front of a consent page (`interaction` from its `next`);
 * nothing when there is none. A request that expired or belongs to another browser names no app.
 */
export const useAskingApp = (interaction: string | null) =>
  useQuery({
    queryKey: oauthKeys.asking(interaction ?? ''),
    queryFn: async () => (await interactionApp(interaction!)).app,
    enabled: interaction !== null,
    retry: false,
    staleTime: Infinity,
  });

/** The consent page's request: the app, the scopes it asks for, where the browser goes back to. */
export const useInteraction = (interaction: string) =>
  useQuery({ queryKey: oauthKeys.interaction(interaction), queryFn: () => interactionDetails(interaction) });

/** Reloads the lists after a change; the mutation settles once they are loaded again. */
function useReloadAccess(): () => Promise<void> {
  const client = useQueryClient();
  return () => reload(client, oauthKeys.access());
}

export function useWithdrawConsent() {
  const reloadAccess = useReloadAccess();
  return useMutation({ mutationFn: withdrawConsent, onSuccess: reloadAccess });
}

/** Registers an app; the answer (its client secret, shown once) is the mutation's data, shown before the list reloads. */
export function useCreateApp() {
  const reloadAccess = useReloadAccess();
  return useMutation({ mutationFn: (body: AppRegistration) => createApp(body), onSuccess: () => void reloadAccess() });
}

/** Changes an app; the list reloads with it. */
export function useUpdateApp() {
  const reloadAccess = useReloadAccess();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: AppChanges }) => updateApp(id, changes),
    onSuccess: reloadAccess,
  });
}

export function useDeleteApp() {
  const reloadAccess = useReloadAccess();
  return useMutation({ mutationFn: deleteApp, onSuccess: reloadAccess });
}

/** A new client secret; the answer (shown once) is the mutation's data. Nothing listed changes. */
export const useReplaceSecret = () => useMutation({ mutationFn: replaceSecret });
