import { describe, expect, it } from '@jest/globals';
import { safeNext, signInPath } from '../../routes/paths';
import { ApiError } from '../../shared/api';
import { authErrorText, EMAIL_IN_USE_TEXTS } from './conflict-texts';
import { parseEntryHash, viewOf } from './hash-routes';

describe('sign-in conflict texts (docs/web-app.md#forms-and-error-texts)', () => {
  it('the Google text is exactly the agreed text', () => {
    expect(EMAIL_IN_USE_TEXTS.error_email_in_use_google).toBe(
      'The selected email address is already in use: did you log in with a different authentication provider? Maybe Github or Facebook? or maybe you used a password?',
    );
  });

  it('each text suggests the other ways in, never the one just tried', () => {
    expect(EMAIL_IN_USE_TEXTS.error_email_in_use_internal).toMatch(/Github, Facebook or Google\?$/);
    expect(EMAIL_IN_USE_TEXTS.error_email_in_use_internal).not.toMatch(/password/);
    expect(EMAIL_IN_USE_TEXTS.error_email_in_use_facebook).toMatch(/Github or Google\? or maybe you used a password\?$/);
    expect(EMAIL_IN_USE_TEXTS.error_email_in_use_github).toMatch(/Google or Facebook\? or maybe you used a password\?$/);
  });

  it('other errors show their sentence, then error - detail on the details line', () => {
    expect(authErrorText(new ApiError(401, 'UNAUTHORIZED', 'the email address or the password is wrong'))).toBe(
      'The email address or the password is wrong. Check both and try again.\nDetails: UNAUTHORIZED - the email address or the password is wrong',
    );
    expect(authErrorText(new ApiError(409, 'EMAIL_IN_USE', 'taken', 'error_email_in_use_internal'))).toBe(
      EMAIL_IN_USE_TEXTS.error_email_in_use_internal,
    );
    expect(authErrorText(new ApiError(429, 'RATE_LIMITED'))).toBe(
      'Too many tries in a short time. Wait a little, then try again.\nDetails: RATE_LIMITED',
    );
  });
});

describe('login views and entry hashes', () => {
  it('the hash picks the view', () => {
    expect(viewOf('#!/register')).toEqual({ name: 'register' });
    expect(viewOf('#!/login')).toEqual({ name: 'login' });
    expect(viewOf('')).toEqual({ name: 'login' });
    expect(viewOf('#!/reset')).toEqual({ name: 'reset' });
    expect(viewOf('#!/reset/abc%2Bdef')).toEqual({ name: 'reset-token', token: 'abc+def' });
  });

  it('finds impersonate and tokenswap codes in the hash', () => {
    expect(parseEntryHash('#impersonate/XYZ123')).toEqual({ kind: 'impersonate', code: 'XYZ123' });
    expect(parseEntryHash('#!/tokenswap/abc')).toEqual({ kind: 'tokenswap', code: 'abc' });
    expect(parseEntryHash('#!/login')).toBeNull();
  });

  it('only same-site paths are returned to after sign-in', () => {
    expect(safeNext('/billing')).toBe('/billing');
    expect(safeNext('//evil.example')).toBeUndefined();
    expect(safeNext('/\\evil.example')).toBeUndefined();
    expect(safeNext('https://evil.example')).toBeUndefined();
    expect(signInPath('/account?tab=1')).toBe('/login?next=%2Faccount%3Ftab%3D1#!/login');
    expect(signInPath('//x')).toBe('/login#!/login');
  });
});
