/**
 * The sandbox processor's hosted page through TanStack Query: its session (one key per session) and
 * what the payer does there. Every answer is the session as it now is: it replaces the cached one, and
 * a completed session sends the browser on to its success address.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SandboxSessionView } from '@tinkerdesk/contracts/web';
import type { ApiSchemas } from '../../../shared/api';
import { authenticateSandbox, cancelSandbox, getSandboxSession, paySandbox } from '../api';

export const sandboxKeys = {
  all: ['sandbox'] as const,
  session: (sessionId: string) => [...sandboxKeys.all, sessionId] as const,
};

export const useSandboxSession = (sessionId: string) =>
  useQuery({ queryKey: sandboxKeys.session(sessionId), queryFn: async () => (await getSandboxSession(sessionId)).session });

type SandboxStep = { pay: ApiSchemas['SandboxCardDto'] } | { approve: boolean };

/**
 * Pays with a card, or answers the bank's confirmation (3-D Secure). A completed session is not shown
 * as such on the way out: the page stays as it was (`leaving`) until the browser has left.
 */
export function useSandboxStep(sessionId: string) {
  const client = useQueryClient();
  const step = useMutation({
    mutationFn: (step: SandboxStep) => ('pay' in step ? paySandbox(sessionId, step.pay) : authenticateSandbox(sessionId, step.approve)),
    onSuccess: ({ session }: { session: SandboxSessionView }) => {
      if (session.status === 'complete') window.location.assign(session.successUrl);
      else client.setQueryData(sandboxKeys.session(sessionId), session);
    },
  });
  return { ...step, leaving: step.data?.session.status === 'complete' };
}

/** Leaves for the cancel address; leaving works even if the session could not be closed (it expires on its own). */
export const useLeaveSandbox = (sessionId: string) =>
  useMutation({
    mutationFn: (cancelUrl: string) =>
      cancelSandbox(sessionId).then(
        () => cancelUrl,
        () => cancelUrl,
      ),
    onSuccess: (cancelUrl) => window.location.assign(cancelUrl),
  });
