/**
 * OAuth for integrators (issue 19) through the typed client: the apps a user registers, the
 * consents they gave, and the consent page's details. Allowing or refusing is a browser navigation
 * (the gateway sends the browser back to the app), so those two are URLs.
 */
import type { OAuthAuthMethod, OAuthScope } from '@tinkerdesk/contracts/web';
import { unwrap, v1 } from '../../shared/api';

export const listApps = () => unwrap(v1.GET('/v1/oauth2/apps'));

/** Who made an app and its links (each optional), which the consent page shows. */
export interface AppDetails {
  developerName?: string;
  developerContact?: string;
  homepageUrl?: string;
  privacyUrl?: string;
  termsUrl?: string;
}

export interface AppRegistration extends AppDetails {
  name: string;
  redirectUris: string[];
  scopes: OAuthScope[];
  tokenEndpointAuthMethod: OAuthAuthMethod;
}

export const createApp = (body: AppRegistration) => unwrap(v1.POST('/v1/oauth2/apps', { body }));

/** PATCH /v1/oauth2/apps/{id}: name, redirect URIs, developer and links; an empty text clears a field. */
export const updateApp = (id: string, body: AppChanges) => unwrap(v1.PATCH('/v1/oauth2/apps/{id}', { params: { path: { id } }, body }));

export interface AppChanges extends AppDetails {
  name?: string;
  redirectUris?: string[];
}

export const deleteApp = (id: string) => unwrap(v1.DELETE('/v1/oauth2/apps/{id}', { params: { path: { id } } }));

export const replaceSecret = (id: string) => unwrap(v1.POST('/v1/oauth2/apps/{id}/secret', { params: { path: { id } } }));

export const listConsents = () => unwrap(v1.GET('/v1/oauth2/consents'));

export const withdrawConsent = (id: string) => unwrap(v1.DELETE('/v1/oauth2/consents/{id}', { params: { path: { id } } }));

export const interactionDetails = (interaction: string) =>
  unwrap(v1.GET('/v1/oauth2/interaction/{interaction}', { params: { path: { interaction } } }));

/** Which app a request is from, signed out too (the request's cookie is this browser's). */
export const interactionApp = (interaction: string) =>
  unwrap(v1.GET('/v1/oauth2/interaction/{interaction}/app', { params: { path: { interaction } } }));

/** GET /v1/oauth2/setup: allow; the gateway sends the browser back to the app with a code. */
export const allowUrl = (interaction: string) => `/v1/oauth2/setup?${new URLSearchParams({ interaction })}`;
/** GET /v1/oauth2/reject: refuse; the browser goes back to the app with error=access_denied. */
export const refuseUrl = (interaction: string) => `/v1/oauth2/reject?${new URLSearchParams({ interaction })}`;

/** Where integrators read the protocol's endpoints. */
export const DISCOVERY_URL = '/v1/oauth2/.well-known/openid-configuration';
