import { AppError, type OidcProviderId } from '@tinkerdesk/contracts';
import { isEmail } from 'class-validator';
import { AuthorizationResponseError, ClientError, ResponseBodyError } from 'openid-client';
import type { ProviderIdentity } from '../accounts/accounts.service.js';

/** How long a started social sign-in may take before its state is no longer accepted. */
export const PENDING_LOGIN_MINUTES = 10;

/** Where the provider sends the browser back: a page of the web app, one per provider. */
export function redirectUriOf(publicUrl: string, provider: OidcProviderId): string {
  return `${publicUrl.replace(/\/+$/, '')}/login/oauth/${provider}`;
}

/**
 * Plain http is allowed only for an issuer on this machine (tests and development); everywhere
 * else openid-client's https-only rule stays on.
 */
export function isLoopbackIssuer(issuer: string): boolean {
  const url = new URL(issuer);
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** The account a provider's claims describe; an email address is required. */
export function identityFromClaims(provider: OidcProviderId, providerName: string, claims: Record<string, unknown>): ProviderIdentity {
  const { sub, email, email_verified: emailVerified, name } = claims;
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > 255) {
    throw new AppError('UNAUTHORIZED', `${providerName} did not identify the account (no usable sub claim)`);
  }
  if (typeof email !== 'string' || email.trim() === '') {
    throw new AppError(
      'VALIDATION_FAILED',
      `${providerName} did not share an email address; allow access to your email address and try again, or sign up with a password`,
    );
  }
  const address = email.trim();
  if (address.length > 254 || !isEmail(address)) {
    throw new AppError('VALIDATION_FAILED', `${providerName} shared an email address that is not valid`);
  }
  return {
    provider,
    subject: sub,
    email: address,
    // Some providers send the claim as the string "true".
    emailVerified: emailVerified === true || emailVerified === 'true',
    name: typeof name === 'string' ? name.trim().slice(0, 200) : '',
  };
}

function describe(error: Error): string {
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

/** The fetch of Node failed to connect, or openid-client's deadline passed. */
function unreachable(error: unknown): boolean {
  if (error instanceof TypeError && error.message === 'fetch failed') return true;
  if (error instanceof ClientError && (error.code === 'OAUTH_TIMEOUT' || error.code === 'OAUTH_ABORT')) return true;
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** An answer with a 5xx status where JSON of the protocol was expected. */
function serverFailed(error: unknown): boolean {
  if (error instanceof ResponseBodyError) return error.status >= 500;
  const cause = error instanceof ClientError ? error.cause : undefined;
  return cause instanceof Response && cause.status >= 500;
}

/**
 * What a failure while talking to a provider means for the caller: the provider cannot be reached
 * or is failing (503), or it did not accept the sign-in or its answer did not validate (401).
 * Errors that are not about the provider (programming errors) are returned as they are.
 */
export function providerFailure(error: unknown, providerName: string, stage: 'discovery' | 'exchange'): Error {
  if (error instanceof AppError) return error;
  if (unreachable(error)) {
    return new AppError(
      'UNAVAILABLE',
      `${providerName} sign-in is not available right now: its server did not answer in time or could not be reached`,
    );
  }
  if (serverFailed(error))
    return new AppError('UNAVAILABLE', `${providerName} sign-in is not available right now: its server reported a failure`);
  if (stage === 'discovery') {
    const reason = error instanceof Error ? describe(error) : String(error);
    return new AppError(
      'UNAVAILABLE',
      `${providerName} sign-in is not available right now: its discovery document could not be used (${reason})`,
    );
  }
  if (error instanceof ResponseBodyError) {
    const reason = error.error_description ? `${error.error}: ${error.error_description}` : error.error;
    return new AppError('UNAUTHORIZED', `${providerName} did not accept the sign-in code (${reason}); start the sign-in again`);
  }
  if (error instanceof AuthorizationResponseError) {
    return new AppError('UNAUTHORIZED', `${providerName} reported an error (${error.error}); start the sign-in again`);
  }
  if (error instanceof ClientError) {
    return new AppError(
      'UNAUTHORIZED',
      `the answer of ${providerName} did not pass validation (${describe(error)}); start the sign-in again`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}
