import { type ErrorCode, isErrorCode } from '@tinkerdesk/contracts/web';

/**
 * The one place where an error code becomes words people understand (docs/web-app.md#forms-and-error-texts).
 * Every code of the catalogue (libs/contracts/src/errors.ts) has a sentence; the compiler checks that none is
 * missing. The spec's `error - detail` text stays with it, on a details line (see errorText in ./api).
 */
export const ERROR_SENTENCES: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'Some of what was entered is not accepted; the details say which part.',
  MALFORMED_JSON: 'The request could not be read. Reload the page and try again.',
  BAD_REQUEST: 'The request could not be read. Reload the page and try again.',
  SIGNATURE_INVALID: 'The message could not be verified, so it was not accepted.',
  INVALID_TOKEN: 'Your session has ended. Sign in again.',
  UNAUTHORIZED: 'You need to be signed in to do this. Sign in and try again.',
  FORBIDDEN: 'Your account is not allowed to do this.',
  URL_NOT_ALLOWED: 'That address cannot be reached from this site. Use a public http or https address.',
  IDENTIFIER_NOT_FOUND: 'We could not find that. It may have been removed, or the link may be wrong.',
  LINK_INVALID: 'This link has been used already, has expired or is incomplete. Ask for a new one.',
  EXPIRED: 'This result has expired. Run it again to get a new one.',
  NOT_FOUND: 'We could not find that. It may have been removed, or the link may be wrong.',
  METHOD_NOT_ALLOWED: 'This action is not possible here.',
  REQUEST_TIMEOUT: 'The server took too long to answer. Try again.',
  CONFLICT: 'This clashes with something that exists already or has just changed.',
  EMAIL_IN_USE: 'An account with this email address exists already. Sign in instead.',
  PAYLOAD_TOO_LARGE: 'This is too large to send. Try a smaller file or a shorter text.',
  QUOTA_EXCEEDED: 'Saving this would take your account past its storage space. Delete some files first.',
  UNSUPPORTED_MEDIA_TYPE: 'This kind of file cannot be used here.',
  UNPROCESSABLE: 'This could not be done with what was given.',
  ACCOUNT_INVALID: 'The payment provider does not accept this seller account for payments.',
  RATE_LIMITED: 'Too many tries in a short time. Wait a little, then try again.',
  QUEUE_FULL: 'The converter is busy. Try again in a minute.',
  HEADERS_TOO_LARGE: 'The request was too large to read. Clear this site’s cookies and try again.',
  INTERNAL: 'Something went wrong on our side. Try again; if it keeps failing, contact us with the details below.',
  UPSTREAM_ERROR: 'The other site answered with an error, so nothing could be fetched.',
  UNAVAILABLE: 'This is not available right now. Try again later.',
  ENGINE_UNAVAILABLE: 'This kind of file cannot be converted on this server right now.',
};

/** Sentences a feature says instead of the general one, where its context knows better (sign-in's UNAUTHORIZED). */
export type SentenceOverrides = Partial<Record<ErrorCode, string>>;

/** The sentence for a code, or undefined for a code outside the catalogue (its detail is then the text). */
export function errorSentence(code: string, overrides: SentenceOverrides = {}): string | undefined {
  return isErrorCode(code) ? (overrides[code] ?? ERROR_SENTENCES[code]) : undefined;
}

/** What separates the sentence from the details line in an error text. */
export const DETAILS_SEPARATOR = '\nDetails: ';

/** An error text split into its sentence and its `error - detail` details line (no details: just the text). */
export function splitErrorText(text: string): { sentence: string; details?: string } {
  const at = text.indexOf(DETAILS_SEPARATOR);
  if (at < 0) return { sentence: text };
  return { sentence: text.slice(0, at), details: text.slice(at + DETAILS_SEPARATOR.length) };
}

/** The sentence with the spec's `error - detail` on a details line; an unknown code keeps the spec's text alone. */
export function withSentence(code: string, specText: string, overrides?: SentenceOverrides): string {
  const sentence = errorSentence(code, overrides);
  return sentence ? `${sentence}${DETAILS_SEPARATOR}${specText}` : specText;
}
