import { describe, expect, it } from '@jest/globals';
import { AppError, type AccountView } from '@tinkerdesk/contracts';
import { accountAnswerScript, isAccountPath, readAccountAnswer, sessionCookie } from './account-page.js';

const account: AccountView = {
  guid: '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f',
  name: 'Ada',
  tz: 'Europe/Berlin',
  active: true,
  email: 'ada@example.com',
  verified: false,
  context: {},
  services: [],
};

describe("an account's page: which paths are painted for a signed-in visitor", () => {
  it('is the account’s own section, as the router matches it', () => {
    for (const path of ['/account', '/account/', '/account/profile', '/account/profile/', '/Account', '/ACCOUNT/Profile']) {
      expect([path, isAccountPath(path)]).toEqual([path, true]);
    }
  });

  it('is no other page, the other sections included (their content is read by the app)', () => {
    for (const path of ['/', '/accounts', '/account/selling', '/account/profile/x', '/account//', '/login', '/x/account']) {
      expect([path, isAccountPath(path)]).toEqual([path, false]);
    }
  });
});

describe("an account's page: the session cookie", () => {
  it('is the `token` cookie, decoded, among others', () => {
    expect(sessionCookie('token=abc')).toBe('abc');
    expect(sessionCookie('loggedIn=true; token=a%2Fb%3D; theme=dark')).toBe('a/b=');
    expect(sessionCookie('xtoken=no; token=yes')).toBe('yes');
  });

  it('is none without one, when it is empty, too long, has white space or is not valid percent-encoding', () => {
    for (const header of [
      undefined,
      '',
      'loggedIn=true',
      'token=',
      `token=${'a'.repeat(201)}`,
      'token=a%20b',
      'token=%E0%A4%A',
      'tokens=abc',
    ]) {
      expect([header, sessionCookie(header)]).toEqual([header, undefined]);
    }
    expect(sessionCookie(`token=${'a'.repeat(200)}`)).toBe('a'.repeat(200));
  });
});

describe("an account's page: the gateway's read", () => {
  it('is the API answer of GET /v1/users/me?include=services for the token', async () => {
    const asked: string[] = [];
    const answer = await readAccountAnswer(
      'tok',
      (token) => {
        asked.push(token);
        return Promise.resolve(account);
      },
      1000,
    );
    expect(answer).toEqual({ status: 200, body: { success: true, ...account } });
    expect(asked).toEqual(['tok']);
  });

  it('is none for no live session, a failure or a late read (the page then goes as everyone gets it)', async () => {
    await expect(
      readAccountAnswer('tok', () => Promise.reject(new AppError('INVALID_TOKEN', 'no session')), 1000),
    ).resolves.toBeUndefined();
    await expect(readAccountAnswer('tok', () => Promise.reject(new AppError('UNAVAILABLE', 'down')), 1000)).resolves.toBeUndefined();
    await expect(readAccountAnswer('tok', () => Promise.reject(new Error('boom')), 1000)).resolves.toBeUndefined();
    await expect(readAccountAnswer('tok', () => new Promise(() => undefined), 20)).resolves.toBeUndefined();
  });

  it('is inlined as JSON that is never run and that no text of the account can end', () => {
    const hostile = { ...account, name: '</script><script>alert(1)</script>\u2028\u2029' };
    const script = accountAnswerScript({ status: 200, body: { success: true, ...hostile } });
    expect(script).toMatch(/^<script type="application\/json" id="account-answer">/);
    const json = /^<script[^>]*>(.*)<\/script>$/s.exec(script)![1]!;
    expect(json).not.toContain('<');
    expect(json).not.toContain('\u2028');
    expect(json).not.toContain('\u2029');
    expect(JSON.parse(json)).toEqual({ status: 200, body: { success: true, ...hostile } });
  });
});
