/**
 * Identity's answers and constants, free of Nest and class-validator so the browser can import them
 * (through `@tinkerdesk/contracts/web`). The DTO classes that validate requests are in identity.ts.
 */

export interface Profile {
  guid: string;
  name: string;
  tz: string;
  active: boolean;
  email: string;
  verified: boolean;
  context: Record<string, unknown>;
}

export interface PublicProfile {
  guid: string;
  name: string;
}

export interface AuthResult {
  profile: Profile;
  token: string;
  verified: boolean;
}

/** The device cookie a browser keeps for an account it signed in to (OWASP's device cookies): set by the gateway. */
export interface DeviceCookie {
  /** The cookie's name: one per account on a browser (DEVICE_COOKIE_PREFIX and a hash of the account). */
  name: string;
  token: string;
  maxAgeSeconds: number;
}

/** NATS identity.user.signin: the sign-in, and the device cookie to set (new, or renewed). */
export interface SignInResult extends AuthResult {
  device?: DeviceCookie;
}

/** Device cookies' names start with this (the gateway passes only these to identity). */
export const DEVICE_COOKIE_PREFIX = 'tdd_';

/** What the gateway learns from a valid bearer token. */
export interface SessionInfo {
  userId: string;
  sessionId: string;
}

export const CODE_KINDS = ['impersonate', 'tokenswap'] as const;

export type CodeKind = (typeof CODE_KINDS)[number];

export interface CodeView {
  code: string;
  kind: CodeKind;
  expires: string;
}

/** Logout answer: an impersonation's logout hands the administrator a session back. */
export type LogoutResult = { success: true } | ({ success: true } & AuthResult);

/** Social sign-in (OpenID Connect): every provider, in the order the sign-in page lists them. */
export const OIDC_PROVIDERS = ['google', 'github', 'facebook'] as const;

export type OidcProviderId = (typeof OIDC_PROVIDERS)[number];

export const OIDC_PROVIDER_NAMES: Record<OidcProviderId, string> = { google: 'Google', github: 'GitHub', facebook: 'Facebook' };

export function isOidcProvider(value: string): value is OidcProviderId {
  return (OIDC_PROVIDERS as readonly string[]).includes(value);
}

export interface OidcProviderView {
  id: OidcProviderId;
  name: string;
}

/** GET /v1/auth/providers: only the providers configured on this server. */
export interface OidcProvidersResult {
  providers: OidcProviderView[];
}

/** A path on this site: starts with one '/', no backslash, no white space or control characters. */
export const RETURN_TO_PATTERN = /^\/(?![/\\])[^\\\s\p{Cc}]*$/u;

export interface OidcAuthorizeResult {
  /** The provider's authorization endpoint with response_type=code, PKCE (S256), state and nonce. */
  url: string;
}

/** Answers like sign-in, plus where the web app should go next (null: its own default). */
export interface OidcExchangeResult extends AuthResult {
  returnTo: string | null;
}

/**
 * identity.session.revoked: one session ended (logout) or every session of a user (password reset).
 * Gateways drop what they cached of them, so the token stops working on the very next call.
 */
export type SessionRevokedEvent = { sessionId: string } | { userId: string };

/**
 * identity.user.changed: what `me` answers for this user changed (name, time zone, verified...).
 * Gateways drop the profile they remembered, so the very next `me` reads it again.
 */
export interface UserChangedEvent {
  userId: string;
}
