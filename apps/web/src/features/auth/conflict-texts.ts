import { ApiError, errorText } from '../../shared/api';

const IN_USE = 'The selected email address is already in use: did you log in with a different authentication provider?';

/**
 * The sign-in conflict texts (docs/web-app.md#forms-and-error-texts), by key: each suggests the ways in other than the
 * one just tried.
 */
export const EMAIL_IN_USE_TEXTS: Record<string, string> = {
  error_email_in_use_google: `${IN_USE} Maybe Github or Facebook? or maybe you used a password?`,
  error_email_in_use_internal: `${IN_USE} Maybe Github, Facebook or Google?`,
  error_email_in_use_facebook: `${IN_USE} Maybe Github or Google? or maybe you used a password?`,
  error_email_in_use_github: `${IN_USE} Maybe Google or Facebook? or maybe you used a password?`,
};

/** On the sign-in forms an UNAUTHORIZED answer means the email and password did not match. */
const SIGN_IN_SENTENCES = { UNAUTHORIZED: 'The email address or the password is wrong. Check both and try again.' };

/** The text to show for a failed sign-in or sign-up: the conflict text for its key, else the sentence with error - detail. */
export function authErrorText(error: unknown): string {
  if (error instanceof ApiError && error.key && EMAIL_IN_USE_TEXTS[error.key]) return EMAIL_IN_USE_TEXTS[error.key]!;
  return errorText(error, SIGN_IN_SENTENCES);
}
