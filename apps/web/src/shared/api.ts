/**
 * The one way the web app calls the gateway (/v1): the typed client generated from the OpenAPI
 * document (`@tinkerdesk/api-client`), so every path, parameter, body and answer is checked by the
 * compiler against what the gateway documents. Failures become ApiError (the server answered with the
 * error envelope or a status) or NetworkError (no answer at all) so callers can tell the two apart
 * (docs/web-app.md#forms-and-error-texts). Components call the functions of their feature's api module, never a path.
 */
import { ApiError, bearer, createApiClient, NetworkError, unwrap } from '@tinkerdesk/api-client';

export { ApiError, bearer, NetworkError, unwrap };
export type { ApiSchemas, ErrorBody } from '@tinkerdesk/api-client';

/** Same origin: the gateway serves this app. Each call passes its own token (`bearer(token)`). */
export const v1 = createApiClient();

/** The displayed error text (docs/web-app.md#forms-and-error-texts): the server's error, with ' - ' and detail appended if present. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError || error instanceof NetworkError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
