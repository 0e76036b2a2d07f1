/** The auth feature's calls of /v1 (sign-up, sign-in, password reset, social sign-in), typed by the generated client. */
import type { OidcProviderId } from '@tinkerdesk/contracts/web';
import { anonymous, unwrap } from '../../shared/api';

/** `returnTo`: where the verification email's link leads once it has verified the address (else /account). */
export const signUp = (email: string, password: string, tz: string, returnTo?: string) =>
  unwrap(anonymous.POST('/v1/users', { body: { email, password, tz, ...(returnTo ? { returnTo } : {}) } }));

/** `identifier`: the account's guid or its email address. */
export const signIn = (identifier: string, password: string) =>
  unwrap(anonymous.POST('/v1/users/{guid}/signin', { params: { path: { guid: identifier } }, body: { password } }));

export const requestPasswordReset = (email: string) => unwrap(anonymous.POST('/v1/account/resetpassword/setup', { body: { email } }));

/** Resolves when the reset link can still be used; LINK_INVALID when it was used, expired or never existed. */
export const checkResetLink = (token: string) => unwrap(anonymous.POST('/v1/account/resetpassword/check', { body: { token } }));

export const resetPassword = (token: string, password: string) =>
  unwrap(anonymous.POST('/v1/account/resetpassword', { body: { token, password } }));

export const socialProviders = (signal?: AbortSignal) => unwrap(anonymous.GET('/v1/auth/providers', signal ? { signal } : {}));

export const startSocialSignIn = (provider: OidcProviderId, returnTo: string | undefined) =>
  unwrap(anonymous.POST('/v1/auth/{provider}/authorize', { params: { path: { provider } }, body: returnTo ? { returnTo } : {} }));

export const finishSocialSignIn = (provider: OidcProviderId, code: string, state: string, iss: string | null) =>
  unwrap(
    anonymous.POST('/v1/{provider}/credentials/exchange/{code}', {
      params: { path: { provider, code }, query: { state, ...(iss ? { iss } : {}) } },
    }),
  );
