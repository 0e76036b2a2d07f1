import { beforeEach, describe, expect, it } from '@jest/globals';
import { AppError } from '@tinkerdesk/contracts';
import type { AccountsService, ProviderIdentity } from '../accounts/accounts.service.js';
import { hashToken } from '../accounts/tokens.js';
import type { OidcProviderConfig } from '../config.js';
import type { OidcLoginsRepository, PendingLogin } from './oidc-logins.repository.js';
import { SocialService } from './social.service.js';

/**
 * The refusals of SocialService with its repository faked; they all come before any request to a
 * provider (the flow against a real OpenID provider is in test/oidc.int-spec.ts).
 */

const GOOGLE: OidcProviderConfig = {
  id: 'google',
  name: 'Google',
  issuer: 'http://127.0.0.1:1/never-asked',
  clientId: 'client',
  clientSecret: undefined,
};
const GITHUB: OidcProviderConfig = { ...GOOGLE, id: 'github', name: 'GitHub' };

type StoredLogin = PendingLogin & { stateHash: string; expiresAt: Date; used: boolean };

class FakeLogins {
  rows: StoredLogin[] = [];
  insert(login: PendingLogin & { stateHash: string; expiresAt: Date }): Promise<void> {
    this.rows.push({ ...login, used: false });
    return Promise.resolve();
  }
  consume(stateHash: string): Promise<PendingLogin | undefined> {
    const row = this.rows.find((r) => r.stateHash === stateHash && !r.used && r.expiresAt > new Date());
    if (!row) return Promise.resolve(undefined);
    row.used = true;
    return Promise.resolve({ provider: row.provider, codeVerifier: row.codeVerifier, nonce: row.nonce, returnTo: row.returnTo });
  }
}

class FakeAccounts {
  signIns: ProviderIdentity[] = [];
  signInWithProvider(who: ProviderIdentity): Promise<never> {
    this.signIns.push(who);
    return Promise.reject(new Error('not expected in these tests'));
  }
}

let logins: FakeLogins;
let accounts: FakeAccounts;
let service: SocialService;

beforeEach(() => {
  logins = new FakeLogins();
  accounts = new FakeAccounts();
  service = new SocialService(
    logins as unknown as OidcLoginsRepository,
    accounts as unknown as AccountsService,
    [GOOGLE, GITHUB],
    1000,
    'https://tinkerdesk.test',
  );
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => (e instanceof AppError ? { code: e.code, detail: e.detail } : { code: String(e), detail: '' }),
  );

function pending(provider: string, state: string, expiresAt = new Date(Date.now() + 60_000)): void {
  logins.rows.push({ provider, stateHash: hashToken(state), codeVerifier: 'v', nonce: 'n', returnTo: null, expiresAt, used: false });
}

describe('list', () => {
  it('answers the configured providers only, in their order', () => {
    expect(service.list()).toEqual({
      providers: [
        { id: 'google', name: 'Google' },
        { id: 'github', name: 'GitHub' },
      ],
    });
  });
});

describe('authorize', () => {
  it('refuses a known provider that is not configured, naming it, and stores nothing', async () => {
    expect(await failure(service.authorize('facebook', undefined))).toEqual({
      code: 'NOT_FOUND',
      detail: 'sign-in with Facebook is not configured on this server',
    });
    expect(logins.rows).toEqual([]);
  });

  it('refuses an unknown provider, listing the known ones', async () => {
    const answer = await failure(service.authorize('myspace', '/back'));
    expect(answer).toMatchObject({ code: 'NOT_FOUND' });
    expect(answer?.detail).toContain("unknown sign-in provider 'myspace'");
    expect(answer?.detail).toContain('google, github, facebook');
    expect(logins.rows).toEqual([]);
  });
});

describe('exchange', () => {
  it('refuses an unknown provider before using the pending sign-in', async () => {
    pending('google', 'state-1');
    expect(await failure(service.exchange('myspace', 'code', 'state-1', undefined))).toMatchObject({ code: 'NOT_FOUND' });
    expect(logins.rows[0]?.used).toBe(false);
  });

  it('refuses an unknown, finished or expired sign-in', async () => {
    pending('google', 'old', new Date(Date.now() - 1000));
    for (const state of ['never-started', 'old']) {
      expect(await failure(service.exchange('google', 'code', state, undefined))).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect(accounts.signIns).toEqual([]);
  });

  it('refuses a sign-in started with another provider, and it cannot be used again', async () => {
    pending('github', 'state-2');
    expect(await failure(service.exchange('google', 'code', 'state-2', undefined))).toEqual({
      code: 'VALIDATION_FAILED',
      detail: 'this sign-in was started with github, not google; start the sign-in again',
    });
    expect(logins.rows[0]?.used).toBe(true);
    expect(await failure(service.exchange('github', 'code', 'state-2', undefined))).toMatchObject({
      code: 'VALIDATION_FAILED',
      detail: expect.stringContaining('is unknown, was finished already or has expired'),
    });
    expect(accounts.signIns).toEqual([]);
  });
});
