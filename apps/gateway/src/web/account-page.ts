import type { AccountView } from '@tinkerdesk/contracts';
import { jsonScript } from './app-page.js';
import { beforeDeadline, BuiltRenderer } from './built-renderer.js';

/**
 * A signed-in visitor's /account (and /account/profile) as the gateway sends it: the app page with the
 * account's dashboard painted in it from the gateway's own read of the visitor's profile, and that read's
 * answer inlined for the app (docs/web-app.md, "An account's first paint"). The visitor is the one the
 * page request's `token` cookie names (the web app keeps its session token there:
 * apps/web/src/shared/session/session.ts); without one, or when it names no live session, the page is
 * the same for everyone and the app answers (it sends an anonymous visitor to sign in).
 */

/** The session cookie the web app writes (COOKIE_TOKEN in apps/web/src/shared/session/session.ts). */
const TOKEN_COOKIE = 'token';
/** As a bearer token (auth/bearer.guard.ts): at most 200 characters, no white space. */
const TOKEN = /^\S{1,200}$/;
/** The account's own section: /account and /account/profile, with a trailing slash or none, in any letter case (as the router). */
const ACCOUNT = /^\/account(\/profile)?\/?$/i;

/** Whether a page path is the account's own section, which is painted for a signed-in visitor. */
export function isAccountPath(path: string): boolean {
  return ACCOUNT.test(path);
}

/** The session token of a page request's Cookie header (the `token` cookie), or none. */
export function sessionCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== TOKEN_COOKIE) continue;
    let value: string;
    try {
      value = decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      return undefined;
    }
    return TOKEN.test(value) ? value : undefined;
  }
  return undefined;
}

/**
 * Reads the account of a session token as `GET /v1/users/me?include=services` answers it to that
 * token (throws as the API would: INVALID_TOKEN for no live session). Browser sessions only: an app's
 * OAuth access token in the cookie names no account here.
 */
export type AccountReader = (token: string) => Promise<AccountView>;

/** The read's answer as the API gives it. */
export interface AccountAnswer {
  status: 200;
  body: { success: true } & AccountView;
}

/**
 * The account's answer, or none when the read failed (no live session, a service down) or took longer
 * than `timeoutMs`: the page is then sent without the account, and the app reads it and shows what it
 * shows for that outcome.
 */
export async function readAccountAnswer(token: string, read: AccountReader, timeoutMs: number): Promise<AccountAnswer | undefined> {
  const account = await beforeDeadline(read(token), timeoutMs).catch(() => undefined);
  return account ? { status: 200, body: { success: true, ...account } } : undefined;
}

/** The id the app reads the answer by (apps/web/src/shared/session/early-profile.ts, ACCOUNT_ANSWER_ID). */
export const ACCOUNT_ANSWER_ID = 'account-answer';

/** The answer as JSON in the page, for the app's first profile request (early-profile.ts). */
export function accountAnswerScript(answer: AccountAnswer): string {
  return jsonScript(ACCOUNT_ANSWER_ID, { status: answer.status, body: answer.body });
}

/** The web build's renderer (apps/web/src/app/account-shell.tsx, built to dist/shells/account.mjs). */
interface ShellRenderer {
  renderAccountShell(input: { path: string; profile: AccountView }): string;
}

/** The account's first paint (`<main>` and the page), rendered with the app's components from the answer. */
export class AccountShells {
  private readonly renderer: BuiltRenderer<ShellRenderer>;

  constructor(root: string) {
    this.renderer = new BuiltRenderer(root, 'shells/account.mjs');
  }

  /** None when the build has no renderer (the page is then sent without the account). */
  async render(path: string, answer: AccountAnswer): Promise<string | undefined> {
    const renderer = await this.renderer.load();
    if (!renderer) return undefined;
    const { success: _ok, ...profile } = answer.body;
    return renderer.renderAccountShell({ path, profile });
  }
}
