/** What the web app reads from the identity calls (the gateway's answers: /v1/openapi.json, docs/api.md#accounts). */

import type { AccountView, AuthResult, ServiceView } from '@tinkerdesk/contracts/web';

/** A provider service as the profile lists it (the server's own type). */
export type Service = ServiceView;

/** The signed-in user's profile: what GET /v1/users/me?include=services answers (the server's own type). */
export type Profile = AccountView;

export type { AuthResult };

export type NotificationType = 'info' | 'success' | 'warning' | 'error';

/** A notification (docs/web-app.md#session-and-local-database); one with the same tag replaces the earlier one. */
export interface AppNotification {
  id: string;
  tag: string;
  type: NotificationType;
  content: string;
  title?: string;
  heading?: string;
  /** Milliseconds until it closes by itself; 0 or absent keeps it until closed. */
  timeout?: number;
  /** Whether the user can close it (default true). */
  close?: boolean;
  context?: unknown;
  button?: { title: string; target: string };
}

export interface PromptButton {
  title: string;
  value: string;
  primary?: boolean;
}

/** A prompt (docs/web-app.md#session-and-local-database): a question with buttons; answering resolves the promise of prompt(). */
export interface AppPrompt {
  id: string;
  tag: string;
  title: string;
  content: string;
  buttons: PromptButton[];
  close?: boolean;
}

export interface Platform {
  mobile: boolean;
  tablet: boolean;
  desktop: boolean;
}

/** Session state (docs/web-app.md#session-and-local-database). */
export interface SessionState {
  token: string | null;
  loggedIn: boolean;
  active: boolean;
  notifications: AppNotification[];
  prompts: AppPrompt[];
  ready: boolean;
  platform: Platform;
  context: Record<string, unknown>;
  profile: Profile | null;
  verified: boolean;
}
