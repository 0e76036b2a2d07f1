/**
 * The one way the web app calls the gateway (/v1): the typed client generated from the OpenAPI
 * document (`@tinkerdesk/api-client`), so every path, parameter, body and answer is checked by the
 * compiler against what the gateway documents. Failures become ApiError (the server answered with the
 * error envelope or a status) or NetworkError (no answer at all) so callers can tell the two apart
 * (docs/web-app.md#forms-and-error-texts). Components call the functions of their feature's api module, never a path.
 */
import { ApiError, bearer, createApiClient, NetworkError, unwrap } from '@tinkerdesk/api-client';
import { type SentenceOverrides, withSentence } from './error-sentences';

export { ApiError, bearer, NetworkError, unwrap };
export type { ApiSchemas, ErrorBody } from '@tinkerdesk/api-client';

let sessionToken: () => string | null = () => null;

/**
 * Same origin: the gateway serves this app. The client's auth middleware adds the session's token to
 * every call (none while signed out); the session store names its token source once, at start
 * (`authenticateWith`). A call that carries another token (a terminal's own) sets its header itself.
 */
export const v1 = createApiClient({ token: () => sessionToken() });

/** For the calls made without the session at all (sign-in, public pages, the sandbox card page). */
export const anonymous = createApiClient();

/** The session's token, for the uploads that cannot go through the client (XHR, for their progress: shared/upload.ts). */
export const currentSessionToken = (): string | null => sessionToken();

/** Names where the session token comes from; called once, by the session store. */
export function authenticateWith(source: () => string | null): void {
  sessionToken = source;
}

/**
 * The displayed error text (docs/web-app.md#forms-and-error-texts): a sentence people understand for the
 * code (shared/error-sentences.ts), then a details line with the spec's text, the server's error with
 * ' - ' and detail appended if present. A code outside the catalogue shows the spec's text alone.
 */
export function errorText(error: unknown, overrides?: SentenceOverrides): string {
  if (error instanceof ApiError) return withSentence(error.error, error.message, overrides);
  if (error instanceof NetworkError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
