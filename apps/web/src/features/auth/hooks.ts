/**
 * Social sign-in through TanStack Query: the configured OpenID Connect providers (none when the list
 * cannot be read: the buttons just do not show), starting a sign-in (the browser then leaves for the
 * provider) and finishing one (the code is exchanged once, the session starts).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { OidcProviderView } from '@tinkerdesk/contracts/web';
import { isOidcProvider } from '@tinkerdesk/contracts/web';
import { session } from '../../shared/session/session';
import { finishSocialSignIn, socialProviders, startSocialSignIn } from './api';

export const authKeys = {
  providers: ['auth', 'providers'] as const,
};

export const useSocialProviders = () =>
  useQuery({
    queryKey: authKeys.providers,
    queryFn: ({ signal }) =>
      socialProviders(signal).then(
        (body) => body.providers,
        (): OidcProviderView[] => [],
      ),
  });

/** Asks for the provider's sign-in URL and goes there. */
export const useStartSocialSignIn = (next: string | undefined) =>
  useMutation({
    mutationFn: async (provider: OidcProviderView) => {
      const { url } = await startSocialSignIn(provider.id, next);
      window.location.assign(url);
    },
  });

export interface ProviderReturn {
  provider: string;
  code: string;
  state: string;
  issuer: string | null;
}

/** Exchanges the code the provider sent back and starts the session; answers where to go next. */
export const useFinishSocialSignIn = () =>
  useMutation({
    mutationFn: async ({ provider, code, state, issuer }: ProviderReturn) => {
      if (!isOidcProvider(provider)) throw new Error(`Unknown sign-in provider "${provider}".`);
      const result = await finishSocialSignIn(provider, code, state, issuer);
      await session.login(result);
      return result.returnTo;
    },
  });
