/**
 * OAuth 2 for integrators (issue 19): Tinkerdesk is an authorization server (oidc-provider in the
 * gateway, its records kept by identity). Apps registered by signed-in users ask for scopes; an
 * access token works on the /v1 routes its scopes cover. Browser-safe: types and constants only.
 */

/** The scopes of /v1 an app may ask for, with what the consent page says about each, in plain words. */
export const OAUTH_API_SCOPES = {
  profile: 'See and change your name, time zone and email address',
  terminals: 'See your browsers and devices that share links, add new ones, send them links and read what they received',
  convert: 'Convert files and web pages for you on Tinkerdesk’s servers',
  passes: 'See, create, change and delete your wallet passes',
} as const;
export type OAuthApiScope = keyof typeof OAUTH_API_SCOPES;
export const OAUTH_API_SCOPE_NAMES = Object.keys(OAUTH_API_SCOPES) as OAuthApiScope[];

/** OpenID Connect scopes (an ID token about the user), besides the API scopes. */
export const OAUTH_OIDC_SCOPES = {
  openid: 'Know that it is you when you sign in to it (your account number, nothing else)',
  email: 'See your email address',
} as const;
export type OAuthOidcScope = keyof typeof OAUTH_OIDC_SCOPES;

/**
 * The OpenID Connect standard scopes an app may hold: kept in its access token's scope (beside the
 * /v1 scopes) and answered by userinfo (GET /v1/oauth2/me: sub; email and email_verified; name and
 * zoneinfo). `profile` is both: the standard claims and the /v1 profile routes.
 */
export const OAUTH_STANDARD_SCOPE_NAMES = ['openid', 'email', 'profile'] as const;
export type OAuthStandardScope = (typeof OAUTH_STANDARD_SCOPE_NAMES)[number];

/**
 * What an id of oidc-provider's records (codes, tokens, grants, sessions, interactions) can be: its
 * ids are base64url (nanoid, or random bits for tokens: 64 characters). Anything else names no
 * record and is answered as unknown before any lookup.
 */
export const OAUTH_RECORD_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** A registered app's client_id: a UUID. */
export const OAUTH_CLIENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every scope an app may be registered for. */
export const OAUTH_SCOPES = { ...OAUTH_OIDC_SCOPES, ...OAUTH_API_SCOPES } as const;
export type OAuthScope = keyof typeof OAUTH_SCOPES;
export const OAUTH_SCOPE_NAMES = Object.keys(OAUTH_SCOPES) as OAuthScope[];

/** How an app proves who it is at the token endpoint; 'none' is a public app (a browser or mobile app, PKCE only). */
export const OAUTH_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;
export type OAuthAuthMethod = (typeof OAUTH_AUTH_METHODS)[number];

/** The OAuth endpoints live under this path (the issuer is PUBLIC_URL + it). */
export const OAUTH_PATH = '/v1/oauth2';
/** The web app's consent page: /oauth2/consent/{interaction}. */
export const OAUTH_CONSENT_PATH = '/oauth2/consent';

/** An app as its owner sees it (never its secret, which is shown once). */
export interface OAuthAppView {
  /** The client_id. */
  id: string;
  name: string;
  redirectUris: string[];
  /** The scopes it may ask for. */
  scopes: OAuthScope[];
  tokenEndpointAuthMethod: OAuthAuthMethod;
  /** Who made it and its public links, as the consent page shows them; null when not given. */
  developerName: string | null;
  developerContact: string | null;
  homepageUrl: string | null;
  privacyUrl: string | null;
  termsUrl: string | null;
  created: string;
}

/** Who made an app and its links, as the consent page shows them (null: not given). */
export interface OAuthAppPublicView {
  id: string;
  name: string;
  developerName: string | null;
  developerContact: string | null;
  homepageUrl: string | null;
  privacyUrl: string | null;
  termsUrl: string | null;
}

export interface OAuthAppList {
  apps: OAuthAppView[];
}

/** POST /v1/oauth2/apps: the app and, for a confidential one, its client_secret (shown this once). */
/** PATCH /v1/oauth2/apps/{id}: the app as changed. */
export interface OAuthAppUpdated {
  app: OAuthAppView;
}

export interface OAuthAppCreated {
  app: OAuthAppView;
  clientSecret: string | null;
}

/**
 * The consent a user gave an app, listed once per app in /account and withdrawable: every grant of
 * that app for that user (one per browser or device that authorized it), with their scopes together.
 */
export interface OAuthConsentView {
  /** The consent's id (the app's id): DELETE /v1/oauth2/consents/{id} ends every grant, code and token of the app for the user. */
  id: string;
  appId: string;
  appName: string;
  scopes: OAuthScope[];
  /** When the user first allowed the app (its earliest live grant). */
  created: string;
}

export interface OAuthConsentList {
  consents: OAuthConsentView[];
}

/** Which app an authorization request is from, for the sign-in page shown before consent (no account needed). */
export interface OAuthInteractionAppView {
  app: OAuthAppPublicView;
}

/** What the consent page shows: who asks for what, and where the browser goes back to. */
export interface OAuthInteractionView {
  interaction: string;
  app: OAuthAppPublicView;
  scopes: Array<{ name: OAuthScope; description: string }>;
  /** The origin the browser returns to (the app's redirect URI). */
  redirectOrigin: string;
  /** Scopes the user allowed this app before. */
  grantedBefore: OAuthScope[];
}
