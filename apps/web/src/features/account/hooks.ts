/** The account feature's requests as TanStack Query mutations (the profile lives in the session store). */
import { useMutation } from '@tanstack/react-query';
import { session } from '../../shared/session/session';
import { requestVerification, updateProfile } from './api';

/** Saves name and time zone; the session's profile takes the answer. */
export function useUpdateProfile() {
  return useMutation({
    mutationFn: ({ name, tz }: { name: string; tz: string }) => updateProfile(name, tz),
    onSuccess: ({ success: _ok, ...updated }) => {
      session.setProfile(updated);
      session.notify({ tag: 'profile', type: 'success', content: 'Your profile is saved.', timeout: 5000 });
    },
  });
}

/**
 * Sends the verification link again. When none went out (verified already, or one left moments ago)
 * the profile is read again, so the page shows what is true now.
 */
export function useRequestVerification() {
  return useMutation({
    mutationFn: async ({ guid, email, returnTo }: { guid: string; email: string; returnTo?: string }) => {
      const { sent } = await requestVerification(guid, returnTo);
      if (sent) {
        session.notify({
          tag: 'verification',
          type: 'success',
          heading: 'Check your inbox',
          content: `We sent a verification link to ${email}. It works for 48 hours.`,
          timeout: 10000,
        });
      } else {
        await session.refresh();
      }
    },
  });
}
