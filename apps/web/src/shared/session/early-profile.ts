/**
 * The signed-in profile asked for by the entry (main.tsx), before the app's scripts have even
 * downloaded: with a session cookie, GET /v1/users/me is sent at once instead of after the app has
 * booted, and the session's first profile request (session.ts) takes its answer. /account's content
 * waits for that profile: its largest paint came about one round trip and the boot's evaluation
 * later when the request started from the app. Part of the entry chunk: keep it tiny and
 * dependency-free.
 */
import { answered, inlineJson } from '../inline-answer';

export const EARLY_PROFILE_PATH = '/v1/users/me?include=services';

/**
 * The id of the profile's answer in the page (`<script type="application/json">`, never run): on a
 * signed-in visitor's /account the gateway paints the page from its own read of the profile and puts that
 * answer beside it (apps/gateway/src/web/account-page.ts, ACCOUNT_ANSWER_ID), so no request is sent.
 */
export const ACCOUNT_ANSWER_ID = 'account-answer';

let early: { token: string; response: Promise<Response> } | undefined;

/** The `token` cookie (session.ts writes it; COOKIE_TOKEN there). */
function tokenCookie(): string | null {
  const found = document.cookie.split(';').find((part) => part.trim().startsWith('token='));
  return found ? decodeURIComponent(found.trim().slice('token='.length)) : null;
}

/** Sends the profile request now when the visitor has a session cookie (once per page). */
export function requestProfileEarly(): void {
  const token = tokenCookie();
  if (!token || early) return;
  // A failure is the session's to see (it retries or reports it), so none is reported here.
  const response = inlineAnswer() ?? fetch(EARLY_PROFILE_PATH, { headers: { authorization: `Bearer ${token}` } });
  response.catch(() => undefined);
  early = { token, response };
}

/**
 * The answer the gateway read for this page with the page's own cookie (`{status, body}`), as a
 * response; none when the page has none or it cannot be read.
 */
function inlineAnswer(): Promise<Response> | undefined {
  const { status, body } = (inlineJson(ACCOUNT_ANSWER_ID) ?? {}) as { status?: unknown; body?: unknown };
  return status === 200 && typeof body === 'object' && body !== null ? answered(status, body) : undefined;
}

/**
 * The early answer for this request, once: when it is the same request (path, query and token) that
 * was sent early; otherwise (or the second time) none, and the caller fetches as usual.
 */
export function takeEarlyProfile(request: Request): Promise<Response> | undefined {
  if (!early) return undefined;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.pathname + url.search !== EARLY_PROFILE_PATH) return undefined;
  if (request.headers.get('authorization') !== `Bearer ${early.token}`) return undefined;
  const { response } = early;
  early = undefined;
  return response;
}
