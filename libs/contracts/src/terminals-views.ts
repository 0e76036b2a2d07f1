/**
 * Terminals (docs/api.md#terminals-and-web-push): browsers registered by a signed-in user that send and
 * receive shared content, with Web Push. Browser-safe: types and constants only.
 */

/** The two platforms a browser terminal reports. */
export const TERMINAL_PLATFORMS = ['Browser (mobile)', 'Browser (desktop)'] as const;
export type TerminalPlatform = (typeof TERMINAL_PLATFORMS)[number];

/** What a share may carry: a link ('text/x-uri') or plain text. */
export const SHARE_CONTENT_TYPES = ['text/x-uri', 'text/plain'] as const;
export type ShareContentType = (typeof SHARE_CONTENT_TYPES)[number];

/** Longest content of one share, in characters. */
export const SHARE_CONTENT_MAX = 8192;
/** Longest description of one share. */
export const SHARE_DESCRIPTION_MAX = 500;

/** The vibration of a push notification, in milliseconds. */
export const PUSH_VIBRATE = [200, 100, 200, 100, 200, 100, 200] as const;
/** The button of a push notification when the message names none. */
export const PUSH_DEFAULT_ACTION = 'View';
/** Icon and badge of push notifications (served by the web app). */
export const PUSH_ICON = '/icons/icon-192.png';
export const PUSH_BADGE = '/icons/badge-72.png';

/** The path, under the site, that the operating system's share sheet posts to (the web manifest's share_target). */
export const SHARE_TARGET_PATH = '/_share-target';

/** The push message a terminal's service worker receives (docs/api.md#terminals-and-web-push), as JSON in the push payload. */
export interface PushMessage {
  title: string;
  description: string;
  /** The notification's button label (default 'View'). */
  action?: string;
  contentType: ShareContentType;
  content: string;
  /** The share it announces and the terminal it was sent to, so a click can open it in the inbox. */
  shareId?: string;
  terminalId?: string;
}

/** The share payload: what is sent to a terminal. */
export interface SharePayload {
  contentType: ShareContentType;
  content: string;
  description: string;
}

/** A share kept in a terminal's inbox. */
export interface ShareView extends SharePayload {
  id: string;
  /** The terminal it was sent to (its inbox). */
  terminalId: string;
  /** The terminal that sent it, or null when the user sent it from the account page. */
  fromTerminalId: string | null;
  /** Whether the push service accepted the push for it: pending, sent, failed (no subscription, or it failed every try). */
  push: 'pending' | 'sent' | 'failed' | 'none';
  created: string;
}

export interface ShareList {
  shares: ShareView[];
  total: number;
  offset: number;
  limit: number;
}

/** A terminal as its owner sees it (never its token). */
export interface TerminalView {
  id: string;
  label: string;
  send: boolean;
  receive: boolean;
  active: boolean;
  details: Record<string, string>;
  platform: TerminalPlatform;
  capabilities: string[];
  remote: boolean;
  /** Where this terminal's own shares go (another terminal of the account), or null: its own inbox. */
  destination: string | null;
  /** Whether a push subscription is stored for it. */
  subscribed: boolean;
  /** Shares in its inbox. */
  inbox: number;
  /** The app that registered it with an access token (it ends when that consent ends), or null: the user did. */
  app: { id: string; name: string } | null;
  created: string;
  modified: string;
}

export interface TerminalList {
  terminals: TerminalView[];
}

/** The answer of POST /v1/terminals: the terminal and its token, shown once. */
export interface TerminalRegistration {
  terminal: TerminalView;
  terminalToken: string;
}

/** Whose terminal token it is; grantId: the OAuth grant that registered it (the token works while that grant lives). */
export interface TerminalCallerView {
  userId: string;
  terminalId: string;
  grantId: string | null;
}
