import { describe, expect, it } from '@jest/globals';
import { AppError } from '@tinkerdesk/contracts';
import { ClientError, ResponseBodyError } from 'openid-client';
import { identityFromClaims, isLoopbackIssuer, providerFailure, redirectUriOf } from './social-rules.js';

function failure(error: unknown, stage: 'discovery' | 'exchange' = 'exchange'): { code: string; detail: string } {
  const out = providerFailure(error, 'Google', stage);
  expect(out).toBeInstanceOf(AppError);
  return { code: (out as AppError).code, detail: (out as AppError).detail };
}

describe('social sign-in rules', () => {
  it('builds the redirect URI of a provider from the public address', () => {
    expect(redirectUriOf('https://tinkerdesk.example.com', 'google')).toBe('https://tinkerdesk.example.com/login/oauth/google');
    expect(redirectUriOf('https://example.com/desk/', 'github')).toBe('https://example.com/desk/login/oauth/github');
  });

  it('allows plain http only for an issuer on this machine', () => {
    expect(isLoopbackIssuer('http://127.0.0.1:9400')).toBe(true);
    expect(isLoopbackIssuer('http://localhost:9400/realms/x')).toBe(true);
    expect(isLoopbackIssuer('http://[::1]:9400')).toBe(true);
    expect(isLoopbackIssuer('http://accounts.google.com')).toBe(false);
    expect(isLoopbackIssuer('http://localhost.evil.example')).toBe(false);
    expect(isLoopbackIssuer('https://localhost')).toBe(false);
  });

  it('reads the account from the claims; the email is required', () => {
    expect(identityFromClaims('google', 'Google', { sub: 's1', email: ' ada@example.com ', email_verified: true, name: '  Ada ' })).toEqual(
      {
        provider: 'google',
        subject: 's1',
        email: 'ada@example.com',
        emailVerified: true,
        name: 'Ada',
      },
    );
    expect(identityFromClaims('github', 'GitHub', { sub: 's2', email: 'g@example.com', email_verified: 'true' })).toMatchObject({
      emailVerified: true,
      name: '',
    });
    expect(identityFromClaims('facebook', 'Facebook', { sub: 's3', email: 'f@example.com' })).toMatchObject({ emailVerified: false });
    expect(identityFromClaims('google', 'Google', { sub: 's4', email: 'n@example.com', name: 'x'.repeat(300) }).name).toHaveLength(200);

    expect(() => identityFromClaims('google', 'Google', { sub: 's5' })).toThrow('Google did not share an email address');
    expect(() => identityFromClaims('google', 'Google', { sub: 's6', email: 'not an email' })).toThrow('not valid');
    expect(() => identityFromClaims('google', 'Google', { email: 'a@example.com' })).toThrow('no usable sub claim');
  });

  it('tells an unreachable or failing provider (503) from a rejected sign-in (401)', () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    expect(failure(refused, 'discovery').code).toBe('UNAVAILABLE');
    expect(failure(refused).code).toBe('UNAVAILABLE');
    expect(failure(Object.assign(new ClientError('operation timed out'), { code: 'OAUTH_TIMEOUT' })).code).toBe('UNAVAILABLE');
    expect(failure(new ClientError('unexpected response content-type'), 'discovery')).toMatchObject({
      code: 'UNAVAILABLE',
      detail: expect.stringContaining('discovery document'),
    });

    const rejected = new ResponseBodyError('server responded with an error in the response body', {
      cause: { error: 'invalid_grant', error_description: 'grant request is invalid' },
      response: new Response(null, { status: 400 }),
    });
    expect(failure(rejected)).toEqual({
      code: 'UNAUTHORIZED',
      detail: 'Google did not accept the sign-in code (invalid_grant: grant request is invalid); start the sign-in again',
    });
    const broken = new ResponseBodyError('server responded with an error in the response body', {
      cause: { error: 'server_error' },
      response: new Response(null, { status: 502 }),
    });
    expect(failure(broken).code).toBe('UNAVAILABLE');
    expect(failure(new ClientError('unexpected JWT claim value encountered'))).toMatchObject({
      code: 'UNAUTHORIZED',
      detail: expect.stringContaining('did not pass validation'),
    });

    const known = new AppError('NOT_FOUND', 'x');
    expect(providerFailure(known, 'Google', 'exchange')).toBe(known);
    const bug = new RangeError('a bug of ours');
    expect(providerFailure(bug, 'Google', 'exchange')).toBe(bug);
  });
});
