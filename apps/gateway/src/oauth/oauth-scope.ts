import { applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiOAuth2 } from '@nestjs/swagger';
import type { OAuthApiScope } from '@tinkerdesk/contracts';

/** The scope metadata the bearer guard reads. */
export const OAuthScopeNeeded = Reflector.createDecorator<OAuthApiScope>();

/** The OpenAPI security scheme of apps' access tokens. */
export const OAUTH_SECURITY_SCHEME = 'oauth2';

/**
 * The OAuth scope a route (or a controller's routes) needs: an app's access token with that scope
 * is accepted there as a bearer token (and the OpenAPI document says so). Routes without it accept
 * only a user's own session.
 */
export const OAuthScope = (scope: OAuthApiScope) => applyDecorators(OAuthScopeNeeded(scope), ApiOAuth2([scope], OAUTH_SECURITY_SCHEME));
