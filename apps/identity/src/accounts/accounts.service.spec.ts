import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { AppError, type SessionRevokedEvent, type UserChangedEvent } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import { IDEMPOTENCY_REFUSALS, type IdempotentCreate } from '@tinkerdesk/persistence';
import type { MailJob, MailQueue } from '../mail/mail-queue.js';
import type { ActionPurpose } from './action-token.entity.js';
import { EmailTakenError, type AccountsRepository, type CodeKind, type SocialAccountFields } from './accounts.repository.js';
import { AccountsService } from './accounts.service.js';
import type { IdentityEvents } from './identity-events.js';
import { hashPassword } from './passwords.js';
import type { SessionEntity } from './session.entity.js';
import type { SignInLimiter } from './sign-in-limiter.js';
import { hashToken } from './tokens.js';
import type { UserEntity } from './user.entity.js';

/** The rules of AccountsService with its repository (and the mail queue, limiter and events) faked. */

const PUBLIC_URL = 'https://tinkerdesk.test';
const PASSWORD = 'correct horse battery staple';
const NOW = Date.now();

interface CodeRow {
  userId: string;
  kind: CodeKind;
  codeHash: string;
  issuedBy: string;
  expiresAt: Date;
  usedAt: Date | null;
}

interface ActionTokenRow {
  userId: string;
  purpose: ActionPurpose;
  tokenHash: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** An in-memory AccountsRepository with the same answers as the real one for what the service uses. */
class FakeAccounts {
  users = new Map<string, UserEntity>();
  sessions: SessionEntity[] = [];
  codes: CodeRow[] = [];
  actionTokens: ActionTokenRow[] = [];
  profileUpdates: { id: string; changes: { name?: string; tz?: string } }[] = [];

  addUser(fields: Partial<UserEntity> & { email: string }): UserEntity {
    const user: UserEntity = {
      id: randomUUID(),
      passwordHash: null,
      provider: 'internal',
      providerSubject: null,
      name: '',
      tz: 'UTC',
      active: true,
      verified: false,
      role: 'user',
      context: {},
      created: new Date(NOW),
      modified: new Date(NOW),
      ...fields,
    };
    this.users.set(user.id, user);
    return user;
  }

  insertUser(email: string, passwordHash: string | null, social?: SocialAccountFields | Pick<UserEntity, 'tz'>): Promise<UserEntity> {
    const taken = [...this.users.values()].some(
      (u) =>
        u.email.toLowerCase() === email.toLowerCase() ||
        (social && 'provider' in social && u.provider === social.provider && u.providerSubject === social.providerSubject),
    );
    if (taken) return Promise.reject(new EmailTakenError(email));
    return Promise.resolve(this.addUser({ email, passwordHash, ...social }));
  }

  /** Sign-ups' Idempotency-Keys: key → the request and the account it made (the real table: idempotency.int-spec). */
  keys = new Map<string, { request: string; id: string }>();

  replayedUser(idempotent: IdempotentCreate | undefined): Promise<string | undefined> {
    const stored = idempotent && this.keys.get(idempotent.key);
    if (!stored) return Promise.resolve(undefined);
    if (stored.request !== JSON.stringify(idempotent.request))
      return Promise.reject(new AppError('CONFLICT', IDEMPOTENCY_REFUSALS.mismatch));
    return Promise.resolve(stored.id);
  }

  async insertUserOnce(
    email: string,
    passwordHash: string | null,
    social: Pick<UserEntity, 'tz'> | undefined,
    idempotent: IdempotentCreate | undefined,
  ): Promise<{ user: UserEntity; replayed: boolean }> {
    const user = await this.insertUser(email, passwordHash, social);
    if (idempotent) this.keys.set(idempotent.key, { request: JSON.stringify(idempotent.request), id: user.id });
    return { user, replayed: false };
  }

  findById(id: string): Promise<UserEntity | null> {
    return Promise.resolve(this.users.get(id) ?? null);
  }

  findByProviderSubject(provider: string, subject: string): Promise<UserEntity | null> {
    return Promise.resolve([...this.users.values()].find((u) => u.provider === provider && u.providerSubject === subject) ?? null);
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return Promise.resolve([...this.users.values()].find((u) => u.email.toLowerCase() === email.toLowerCase()) ?? null);
  }

  updateProfile(id: string, changes: { name?: string; tz?: string }): Promise<void> {
    this.profileUpdates.push({ id, changes });
    const user = this.users.get(id);
    if (user) Object.assign(user, changes);
    return Promise.resolve();
  }

  insertSession(userId: string, tokenHash: string, expiresAt: Date, impersonatorId: string | null = null): Promise<SessionEntity> {
    const session: SessionEntity = { id: randomUUID(), userId, tokenHash, expiresAt, impersonatorId, endedAt: null, created: new Date() };
    this.sessions.push(session);
    return Promise.resolve(session);
  }

  findLiveSession(tokenHash: string): Promise<SessionEntity | null> {
    const now = new Date();
    return Promise.resolve(this.sessions.find((s) => s.tokenHash === tokenHash && s.endedAt === null && s.expiresAt > now) ?? null);
  }

  endSession(id: string): Promise<void> {
    const session = this.sessions.find((s) => s.id === id && s.endedAt === null);
    if (session) session.endedAt = new Date();
    return Promise.resolve();
  }

  devices: { id: string; userId: string; tokenHash: string; expiresAt: Date }[] = [];

  findKnownDevice(userId: string, tokenHashes: string[]): Promise<{ id: string; hash: string } | undefined> {
    const found = this.devices.find((d) => d.userId === userId && tokenHashes.includes(d.tokenHash) && d.expiresAt > new Date());
    return Promise.resolve(found ? { id: found.id, hash: found.tokenHash } : undefined);
  }

  insertKnownDevice(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    this.devices.push({ id: randomUUID(), userId, tokenHash, expiresAt });
    return Promise.resolve();
  }

  renewKnownDevice(id: string, expiresAt: Date): Promise<void> {
    const device = this.devices.find((d) => d.id === id);
    if (device) device.expiresAt = expiresAt;
    return Promise.resolve();
  }

  insertCode(userId: string, kind: CodeKind, codeHash: string, issuedBy: string, expiresAt: Date): Promise<void> {
    this.codes.push({ userId, kind, codeHash, issuedBy, expiresAt, usedAt: null });
    return Promise.resolve();
  }

  consumeCode(codeHash: string): Promise<{ userId: string; kind: CodeKind; issuedBy: string } | undefined> {
    const code = this.codes.find((c) => c.codeHash === codeHash && c.usedAt === null && c.expiresAt > new Date());
    if (!code) return Promise.resolve(undefined);
    code.usedAt = new Date();
    return Promise.resolve({ userId: code.userId, kind: code.kind, issuedBy: code.issuedBy });
  }

  insertActionToken(userId: string, purpose: ActionPurpose, tokenHash: string, expiresAt: Date): Promise<void> {
    this.actionTokens.push({ userId, purpose, tokenHash, expiresAt, usedAt: null });
    return Promise.resolve();
  }

  private live(tokenHash: string, purpose: ActionPurpose): ActionTokenRow | undefined {
    return this.actionTokens.find(
      (t) => t.tokenHash === tokenHash && t.purpose === purpose && t.usedAt === null && t.expiresAt > new Date(),
    );
  }

  isLiveActionToken(tokenHash: string, purpose: ActionPurpose): Promise<boolean> {
    return Promise.resolve(this.live(tokenHash, purpose) !== undefined);
  }

  verifyWithToken(tokenHash: string): Promise<string | undefined> {
    const token = this.live(tokenHash, 'verify');
    if (!token) return Promise.resolve(undefined);
    token.usedAt = new Date();
    const user = this.users.get(token.userId);
    if (user) user.verified = true;
    return Promise.resolve(token.userId);
  }

  resetWithToken(tokenHash: string, passwordHash: string): Promise<string | undefined> {
    const token = this.live(tokenHash, 'reset');
    if (!token) return Promise.resolve(undefined);
    token.usedAt = new Date();
    const user = this.users.get(token.userId);
    if (user) user.passwordHash = passwordHash;
    for (const s of this.sessions) if (s.userId === token.userId && s.endedAt === null) s.endedAt = new Date();
    return Promise.resolve(token.userId);
  }
}

class FakeMail {
  jobs: MailJob[] = [];
  keys: string[] = [];
  failing = false;
  enqueue(job: MailJob): Promise<void> {
    if (this.failing) return Promise.reject(new Error('redis is down'));
    this.jobs.push(job);
    return Promise.resolve();
  }
  async enqueueOnce(key: string, job: MailJob): Promise<'queued' | 'duplicate'> {
    if (this.keys.includes(key)) return 'duplicate';
    await this.enqueue(job);
    this.keys.push(key);
    return 'queued';
  }
}

class FakeLimiter {
  attempts: [string, string][] = [];
  successes: [string, string][] = [];
  failures: [string, string][] = [];
  /** The known device each try came from (undefined: none). */
  devices: (string | undefined)[] = [];
  limited = false;
  attempt(account: string, address: string, device?: string): Promise<void> {
    this.attempts.push([account, address]);
    this.devices.push(device);
    return this.limited ? Promise.reject(AppError.rateLimited('too many sign-in attempts', 60)) : Promise.resolve();
  }
  failed(account: string, address: string): Promise<void> {
    this.failures.push([account, address]);
    return Promise.resolve();
  }
  succeeded(account: string, address: string): Promise<void> {
    this.successes.push([account, address]);
    return Promise.resolve();
  }
}

class FakeEvents implements IdentityEvents {
  revokedEvents: SessionRevokedEvent[] = [];
  changed: UserChangedEvent[] = [];
  revoked(event: SessionRevokedEvent): Promise<void> {
    this.revokedEvents.push(event);
    return Promise.resolve();
  }
  userChanged(event: UserChangedEvent): Promise<void> {
    this.changed.push(event);
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

class FakeLogger {
  errors: unknown[] = [];
  info(): void {}
  warn(): void {}
  error(...args: unknown[]): void {
    this.errors.push(args);
  }
}

let passwordHash: string;
let accounts: FakeAccounts;
let mail: FakeMail;
let limiter: FakeLimiter;
let events: FakeEvents;
let logger: FakeLogger;
let service: AccountsService;

beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD);
});

beforeEach(() => {
  accounts = new FakeAccounts();
  mail = new FakeMail();
  limiter = new FakeLimiter();
  events = new FakeEvents();
  logger = new FakeLogger();
  service = new AccountsService(
    accounts as unknown as AccountsRepository,
    mail as unknown as MailQueue,
    limiter as unknown as SignInLimiter,
    PUBLIC_URL,
    logger as unknown as Logger,
    events,
  );
});

/** The code of the AppError a call fails with, or 'resolved'. */
const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

/** A live session of `user` whose token the test knows. */
async function sessionOf(user: UserEntity, impersonatorId: string | null = null): Promise<string> {
  const token = `token-${randomUUID()}`;
  await accounts.insertSession(user.id, hashToken(token), new Date(Date.now() + 3_600_000), impersonatorId);
  return token;
}

describe('signUp', () => {
  it('refuses an email in use (in any letter case), with no session and no email', async () => {
    accounts.addUser({ email: 'ada@example.com' });
    const failure = await service.signUp('  ADA@example.com ', 'a long enough password').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'EMAIL_IN_USE', key: 'error_email_in_use_internal' });
    expect(accounts.users.size).toBe(1);
    expect(accounts.sessions).toEqual([]);
    expect(mail.jobs).toEqual([]);
  });

  it('creates the account with the trimmed email and a password hash, starts a session and queues the verification email', async () => {
    const result = await service.signUp(' grace@example.com ', PASSWORD, 'Europe/Kiev');
    const [user] = [...accounts.users.values()];
    expect(user).toMatchObject({ email: 'grace@example.com', tz: 'Europe/Kyiv', verified: false });
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user?.passwordHash).not.toContain(PASSWORD);
    expect(result).toMatchObject({ verified: false, profile: { guid: user?.id, email: 'grace@example.com', tz: 'Europe/Kyiv' } });
    expect(accounts.sessions).toHaveLength(1);
    expect(accounts.sessions[0]).toMatchObject({ userId: user?.id, tokenHash: hashToken(result.token), impersonatorId: null });
    expect(mail.jobs).toEqual([{ kind: 'verification', userId: user?.id }]);
  });

  it('keeps the default zone when the browser sends one that is not known', async () => {
    await service.signUp('lin@example.com', PASSWORD, 'Mars/Olympus_Mons');
    expect([...accounts.users.values()][0]?.tz).toBe('UTC');
  });

  describe('under an Idempotency-Key', () => {
    const keyed = { key: 'sign-up-1', clientAddress: '203.0.113.7' };

    it('a retry with the same request answers the same account with a new session, checks the password as a sign-in, and mails once', async () => {
      const first = await service.signUp('ada@example.com', PASSWORD, 'Europe/Berlin', undefined, keyed);
      const again = await service.signUp(' ADA@example.com ', PASSWORD, 'Europe/Berlin', undefined, keyed);
      expect(again.profile.guid).toBe(first.profile.guid);
      expect(again.token).not.toBe(first.token);
      expect(accounts.users.size).toBe(1);
      expect(accounts.sessions.map((s) => s.tokenHash)).toEqual([hashToken(first.token), hashToken(again.token)]);
      expect(mail.jobs).toHaveLength(1);
      const account = `user:${first.profile.guid}`;
      expect([limiter.attempts, limiter.successes, limiter.failures]).toEqual([
        [[account, keyed.clientAddress]],
        [[account, keyed.clientAddress]],
        [],
      ]);
    });

    it('another password under the key is another request (409), counted as a failed sign-in; no session', async () => {
      await service.signUp('ada@example.com', PASSWORD, undefined, undefined, keyed);
      const failure = await service
        .signUp('ada@example.com', 'not the password at all', undefined, undefined, keyed)
        .catch((e: unknown) => e);
      expect(failure).toMatchObject({ code: 'CONFLICT', detail: IDEMPOTENCY_REFUSALS.mismatch });
      expect(accounts.sessions).toHaveLength(1);
      expect(limiter.failures).toEqual([[`user:${[...accounts.users.keys()][0]}`, keyed.clientAddress]]);
    });

    it('another email or zone under the key is another request (409); without the key, the email is in use', async () => {
      await service.signUp('ada@example.com', PASSWORD, undefined, undefined, keyed);
      expect(await code(service.signUp('grace@example.com', PASSWORD, undefined, undefined, keyed))).toBe('CONFLICT');
      expect(await code(service.signUp('ada@example.com', PASSWORD, 'Europe/Berlin', undefined, keyed))).toBe('CONFLICT');
      expect(await code(service.signUp('ada@example.com', PASSWORD))).toBe('EMAIL_IN_USE');
      expect(accounts.users.size).toBe(1);
    });

    it('a retry whose account is no longer active opens nothing', async () => {
      const first = await service.signUp('ada@example.com', PASSWORD, undefined, undefined, keyed);
      accounts.users.get(first.profile.guid)!.active = false;
      expect(await code(service.signUp('ada@example.com', PASSWORD, undefined, undefined, keyed))).toBe('NOT_FOUND');
      expect(accounts.sessions).toHaveLength(1);
    });
  });

  it('still signs up when the mail queue is unreachable, and logs it', async () => {
    mail.failing = true;
    expect(await code(service.signUp('kim@example.com', PASSWORD))).toBe('resolved');
    expect(accounts.users.size).toBe(1);
    expect(logger.errors).toHaveLength(1);
  });
});

describe('signIn', () => {
  it('answers an unknown account like a wrong password, counting the try', async () => {
    expect(await code(service.signIn(' Nobody@Example.com', PASSWORD, '203.0.113.9'))).toBe('UNAUTHORIZED');
    expect(limiter.attempts).toEqual([['unknown:nobody@example.com', '203.0.113.9']]);
    expect(accounts.sessions).toEqual([]);
  });

  it('refuses a wrong password with the same answer, counting the try and not giving it back', async () => {
    const user = accounts.addUser({ email: 'ada@example.com', passwordHash });
    const failure = await service.signIn('ada@example.com', 'not the password', '203.0.113.9').catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'UNAUTHORIZED', detail: 'the email address or the password is wrong' });
    expect(limiter.attempts).toEqual([[`user:${user.id}`, '203.0.113.9']]);
    expect(limiter.successes).toEqual([]);
    expect(accounts.sessions).toEqual([]);
  });

  it('refuses an inactive account even with the right password', async () => {
    accounts.addUser({ email: 'ada@example.com', passwordHash, active: false });
    expect(await code(service.signIn('ada@example.com', PASSWORD))).toBe('UNAUTHORIZED');
    expect(limiter.successes).toEqual([]);
    expect(accounts.sessions).toEqual([]);
  });

  it('refuses an account without a password (social sign-in only)', async () => {
    accounts.addUser({ email: 'ada@example.com', provider: 'google', providerSubject: 'g-1' });
    expect(await code(service.signIn('ada@example.com', ''))).toBe('UNAUTHORIZED');
  });

  it('stops at the limiter before the password is checked', async () => {
    accounts.addUser({ email: 'ada@example.com', passwordHash });
    limiter.limited = true;
    expect(await code(service.signIn('ada@example.com', PASSWORD))).toBe('RATE_LIMITED');
    expect(accounts.sessions).toEqual([]);
  });

  it('signs in by guid or by email in any case, gives the try back and starts a session', async () => {
    const user = accounts.addUser({ email: 'ada@example.com', passwordHash });
    const byGuid = await service.signIn(user.id, PASSWORD, 'here');
    const byEmail = await service.signIn('ADA@example.com ', PASSWORD, 'here');
    expect(byGuid.profile.guid).toBe(user.id);
    expect(byEmail.profile.guid).toBe(user.id);
    expect(limiter.successes).toEqual([
      [`user:${user.id}`, 'here'],
      [`user:${user.id}`, 'here'],
    ]);
    expect(accounts.sessions.map((s) => s.tokenHash)).toEqual([hashToken(byGuid.token), hashToken(byEmail.token)]);
  });

  it('gives a browser without a device cookie one, kept hashed, and counts its tries as an unknown browser’s', async () => {
    const user = accounts.addUser({ email: 'ada@example.com', passwordHash });
    const first = await service.signIn('ada@example.com', PASSWORD, 'here');
    expect(first.device).toEqual({
      name: expect.stringMatching(/^tdd_[0-9a-f]{16}$/),
      token: expect.any(String),
      maxAgeSeconds: 180 * 86_400,
    });
    expect(first.device?.name).not.toContain(user.id);
    expect(accounts.devices).toEqual([expect.objectContaining({ userId: user.id, tokenHash: hashToken(first.device!.token) })]);
    expect(limiter.devices).toEqual([undefined]);
  });

  it('counts a known device on its own budget, renews its cookie, and never takes another account’s cookie', async () => {
    const ada = accounts.addUser({ email: 'ada@example.com', passwordHash });
    const bob = accounts.addUser({ email: 'bob@example.com', passwordHash });
    const { device } = await service.signIn('ada@example.com', PASSWORD, 'here');
    const again = await service.signIn('ada@example.com', PASSWORD, 'elsewhere', [device!.token]);
    expect(again.device).toEqual(device);
    expect(limiter.devices[1]).toBe(accounts.devices[0]!.id);
    expect(accounts.devices).toHaveLength(1);
    // Ada's cookie means nothing for Bob: an unknown browser for him, which gets a cookie of its own.
    const failure = await service.signIn('bob@example.com', 'wrong', 'here', [device!.token]).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(limiter.devices[2]).toBeUndefined();
    expect(limiter.failures).toEqual([[`user:${bob.id}`, 'here']]);
    expect(ada.id).not.toBe(bob.id);
  });

  it('records a failure for the address-wide count, for unknown accounts too', async () => {
    await code(service.signIn('nobody@example.com', PASSWORD, '203.0.113.9'));
    expect(limiter.failures).toEqual([['unknown:nobody@example.com', '203.0.113.9']]);
  });
});

describe('signInWithProvider', () => {
  const who = { provider: 'google' as const, subject: 'g-42', email: 'ada@example.com', emailVerified: true, name: 'Ada' };

  it('refuses the inactive account of a known subject', async () => {
    accounts.addUser({ email: 'ada@example.com', provider: 'google', providerSubject: 'g-42', active: false });
    expect(await code(service.signInWithProvider(who))).toBe('UNAUTHORIZED');
    expect(accounts.sessions).toEqual([]);
  });

  it('refuses an email another account uses, keyed by the provider', async () => {
    accounts.addUser({ email: 'ADA@example.com', passwordHash });
    const failure = await service.signInWithProvider(who).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'EMAIL_IN_USE', key: 'error_email_in_use_google' });
    expect(accounts.users.size).toBe(1);
  });

  it('creates a verified account without a password for a new subject, then signs the same subject in again', async () => {
    const first = await service.signInWithProvider(who);
    const [user] = [...accounts.users.values()];
    expect(user).toMatchObject({
      email: 'ada@example.com',
      passwordHash: null,
      provider: 'google',
      providerSubject: 'g-42',
      verified: true,
    });
    const second = await service.signInWithProvider({ ...who, email: 'changed@example.com' });
    expect(second.profile.guid).toBe(first.profile.guid);
    expect(accounts.users.size).toBe(1);
  });
});

describe('verifySession', () => {
  it('refuses an unknown or ended session', async () => {
    expect(await code(service.verifySession('no such token'))).toBe('INVALID_TOKEN');
    const user = accounts.addUser({ email: 'ada@example.com' });
    const token = await sessionOf(user);
    await service.logout(token);
    expect(await code(service.verifySession(token))).toBe('INVALID_TOKEN');
  });

  it('answers the user and session of a live token', async () => {
    const user = accounts.addUser({ email: 'ada@example.com' });
    const token = await sessionOf(user);
    expect(await service.verifySession(token)).toEqual({ userId: user.id, sessionId: accounts.sessions[0]?.id });
  });
});

describe('logout', () => {
  it('refuses an unknown token and announces nothing', async () => {
    expect(await code(service.logout('no such token'))).toBe('INVALID_TOKEN');
    expect(events.revokedEvents).toEqual([]);
  });

  it('ends the session and announces it', async () => {
    const user = accounts.addUser({ email: 'ada@example.com' });
    const token = await sessionOf(user);
    expect(await service.logout(token)).toEqual({ success: true });
    expect(accounts.sessions[0]?.endedAt).toBeInstanceOf(Date);
    expect(events.revokedEvents).toEqual([{ sessionId: accounts.sessions[0]?.id }]);
  });

  it('ending an impersonation gives the administrator a session of their own back', async () => {
    const admin = accounts.addUser({ email: 'root@example.com', role: 'admin' });
    const user = accounts.addUser({ email: 'ada@example.com' });
    const token = await sessionOf(user, admin.id);
    const result = await service.logout(token);
    expect(result).toMatchObject({ success: true, profile: { guid: admin.id } });
    const [ended, fresh] = accounts.sessions;
    expect(ended?.endedAt).toBeInstanceOf(Date);
    expect(events.revokedEvents).toEqual([{ sessionId: ended?.id }]);
    if (!('token' in result) || result.token === undefined) throw new Error('no token in the answer');
    expect(fresh).toMatchObject({ userId: admin.id, tokenHash: hashToken(result.token), impersonatorId: null, endedAt: null });
  });

  it('ending an impersonation of an administrator who is no longer active gives no session', async () => {
    const admin = accounts.addUser({ email: 'root@example.com', role: 'admin', active: false });
    const user = accounts.addUser({ email: 'ada@example.com' });
    expect(await service.logout(await sessionOf(user, admin.id))).toEqual({ success: true });
    expect(accounts.sessions).toHaveLength(1);
  });
});

describe('createCode', () => {
  it('refuses when the account of the session no longer exists', async () => {
    expect(await code(service.createCode(randomUUID(), 'tokenswap', undefined))).toBe('IDENTIFIER_NOT_FOUND');
    expect(accounts.codes).toEqual([]);
  });

  it('refuses to let a plain user impersonate', async () => {
    const user = accounts.addUser({ email: 'ada@example.com' });
    accounts.addUser({ email: 'bob@example.com' });
    expect(await code(service.createCode(user.id, 'impersonate', 'bob@example.com'))).toBe('FORBIDDEN');
    expect(accounts.codes).toEqual([]);
  });

  it('refuses a tokenswap code for another account', async () => {
    const user = accounts.addUser({ email: 'ada@example.com' });
    const other = accounts.addUser({ email: 'bob@example.com' });
    expect(await code(service.createCode(user.id, 'tokenswap', other.id))).toBe('FORBIDDEN');
    expect(await code(service.createCode(user.id, 'tokenswap', 'bob@example.com'))).toBe('FORBIDDEN');
    expect(accounts.codes).toEqual([]);
  });

  it('refuses to impersonate without a target, or an unknown one', async () => {
    const admin = accounts.addUser({ email: 'root@example.com', role: 'admin' });
    expect(await code(service.createCode(admin.id, 'impersonate', undefined))).toBe('VALIDATION_FAILED');
    expect(await code(service.createCode(admin.id, 'impersonate', 'nobody@example.com'))).toBe('NOT_FOUND');
    expect(await code(service.createCode(admin.id, 'impersonate', randomUUID()))).toBe('NOT_FOUND');
    expect(accounts.codes).toEqual([]);
  });

  it('writes a two-minute tokenswap code for one’s own account (by guid, email in any case, or none)', async () => {
    const user = accounts.addUser({ email: 'ada@example.com' });
    const before = Date.now();
    for (const target of [undefined, user.id, 'ADA@example.com']) {
      const view = await service.createCode(user.id, 'tokenswap', target);
      expect(view.kind).toBe('tokenswap');
      const expires = Date.parse(view.expires);
      expect(expires).toBeGreaterThanOrEqual(before + 120_000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 120_000);
      expect(accounts.codes.at(-1)).toMatchObject({
        userId: user.id,
        kind: 'tokenswap',
        codeHash: hashToken(view.code),
        issuedBy: user.id,
      });
    }
    expect(accounts.codes).toHaveLength(3);
  });

  it('writes an impersonation code for the target, issued by the administrator', async () => {
    const admin = accounts.addUser({ email: 'root@example.com', role: 'admin' });
    const user = accounts.addUser({ email: 'ada@example.com' });
    const view = await service.createCode(admin.id, 'impersonate', ' ada@example.com ');
    expect(accounts.codes).toEqual([
      expect.objectContaining({ userId: user.id, kind: 'impersonate', issuedBy: admin.id, codeHash: hashToken(view.code) }),
    ]);
  });
});

describe('exchangeCode', () => {
  it('refuses an unknown code', async () => {
    expect(await code(service.exchangeCode('no such code'))).toBe('LINK_INVALID');
    expect(accounts.sessions).toEqual([]);
  });

  it('refuses a code used already', async () => {
    const user = accounts.addUser({ email: 'ada@example.com' });
    const view = await service.createCode(user.id, 'tokenswap', undefined);
    expect(await code(service.exchangeCode(view.code))).toBe('resolved');
    expect(await code(service.exchangeCode(view.code))).toBe('LINK_INVALID');
    expect(accounts.sessions).toHaveLength(1);
  });

  it('refuses an expired code', async () => {
    const user = accounts.addUser({ email: 'ada@example.com' });
    await accounts.insertCode(user.id, 'tokenswap', hashToken('old'), user.id, new Date(Date.now() - 1000));
    expect(await code(service.exchangeCode('old'))).toBe('LINK_INVALID');
  });

  it('refuses a code whose account is gone or inactive', async () => {
    const user = accounts.addUser({ email: 'ada@example.com' });
    const view = await service.createCode(user.id, 'tokenswap', undefined);
    user.active = false;
    expect(await code(service.exchangeCode(view.code))).toBe('IDENTIFIER_NOT_FOUND');
    expect(accounts.sessions).toEqual([]);
  });

  it('a tokenswap code starts a plain session; an impersonation code one that remembers the administrator', async () => {
    const admin = accounts.addUser({ email: 'root@example.com', role: 'admin' });
    const user = accounts.addUser({ email: 'ada@example.com' });
    const swapped = await service.exchangeCode((await service.createCode(user.id, 'tokenswap', undefined)).code);
    const impersonated = await service.exchangeCode((await service.createCode(admin.id, 'impersonate', user.id)).code);
    expect(swapped.profile.guid).toBe(user.id);
    expect(impersonated.profile.guid).toBe(user.id);
    expect(accounts.sessions).toEqual([
      expect.objectContaining({ userId: user.id, tokenHash: hashToken(swapped.token), impersonatorId: null }),
      expect.objectContaining({ userId: user.id, tokenHash: hashToken(impersonated.token), impersonatorId: admin.id }),
    ]);
  });
});

describe('me and publicProfile', () => {
  it('me refuses an account that no longer exists', async () => {
    expect(await code(service.me(randomUUID()))).toBe('IDENTIFIER_NOT_FOUND');
  });

  it('publicProfile answers a missing and an inactive account alike', async () => {
    const inactive = accounts.addUser({ email: 'ada@example.com', active: false });
    expect(await code(service.publicProfile(randomUUID()))).toBe('NOT_FOUND');
    expect(await code(service.publicProfile(inactive.id))).toBe('NOT_FOUND');
  });

  it('publicProfile answers only the guid and the name', async () => {
    const user = accounts.addUser({ email: 'ada@example.com', name: 'Ada' });
    expect(await service.publicProfile(user.id)).toEqual({ guid: user.id, name: 'Ada' });
  });

  it('me shows a zone saved by its old name by its current one', async () => {
    const user = accounts.addUser({ email: 'ada@example.com', tz: 'Europe/Kiev' });
    expect((await service.me(user.id)).tz).toBe('Europe/Kyiv');
  });
});

describe('update', () => {
  it('refuses an account that no longer exists', async () => {
    expect(await code(service.update(randomUUID(), { name: 'Ghost' }))).toBe('IDENTIFIER_NOT_FOUND');
  });

  it('trims the name, keeps the zone by its current name, announces the change and answers the new profile', async () => {
    const user = accounts.addUser({ email: 'ada@example.com', name: 'Old' });
    const profile = await service.update(user.id, { name: '  Ada Lovelace  ', tz: 'Europe/Kiev' });
    expect(accounts.profileUpdates).toEqual([{ id: user.id, changes: { name: 'Ada Lovelace', tz: 'Europe/Kyiv' } }]);
    expect(events.changed).toEqual([{ userId: user.id }]);
    expect(profile).toMatchObject({ guid: user.id, name: 'Ada Lovelace', tz: 'Europe/Kyiv' });
  });

  it('writes only what was given', async () => {
    const user = accounts.addUser({ email: 'ada@example.com', name: 'Ada' });
    await service.update(user.id, { tz: 'europe/berlin' });
    expect(accounts.profileUpdates).toEqual([{ id: user.id, changes: { tz: 'Europe/Berlin' } }]);
    expect(user.name).toBe('Ada');
  });
});

describe('requestVerification and verificationMail', () => {
  it('refuses an account that no longer exists', async () => {
    expect(await code(service.requestVerification(randomUUID()))).toBe('IDENTIFIER_NOT_FOUND');
    expect(mail.jobs).toEqual([]);
  });

  it('sends nothing to a verified account', async () => {
    const user = accounts.addUser({ email: 'ada@example.com', verified: true });
    expect(await service.requestVerification(user.id)).toEqual({ success: true, sent: false });
    expect(mail.jobs).toEqual([]);
    expect(await service.verificationMail(user.id)).toBeNull();
    expect(accounts.actionTokens).toEqual([]);
  });

  it('answers UNAVAILABLE when the email cannot be queued', async () => {
    const user = accounts.addUser({ email: 'ada@example.com' });
    mail.failing = true;
    expect(await code(service.requestVerification(user.id))).toBe('UNAVAILABLE');
  });

  it('queues the email; the composed mail carries a fresh single-use link whose hash is stored', async () => {
    const user = accounts.addUser({ email: 'ada@example.com' });
    expect(await service.requestVerification(user.id)).toEqual({ success: true, sent: true });
    expect(mail.jobs).toEqual([{ kind: 'verification', userId: user.id }]);
    const message = await service.verificationMail(user.id);
    const token = /\/v1\/account\/verify\?token=([\w-]+)/.exec(message?.text ?? '')?.[1];
    expect(message?.to).toBe('ada@example.com');
    expect(message?.text).toContain(`${PUBLIC_URL}/v1/account/verify?token=`);
    expect(accounts.actionTokens).toEqual([
      expect.objectContaining({ userId: user.id, purpose: 'verify', tokenHash: hashToken(token ?? '') }),
    ]);
  });
});

describe('verifyEmail', () => {
  it('refuses an invalid link and announces nothing', async () => {
    expect(await code(service.verifyEmail('no such token'))).toBe('LINK_INVALID');
    expect(events.changed).toEqual([]);
  });

  it('refuses a reset token used as a verification link', async () => {
    const user = accounts.addUser({ email: 'ada@example.com' });
    await accounts.insertActionToken(user.id, 'reset', hashToken('t'), new Date(Date.now() + 60_000));
    expect(await code(service.verifyEmail('t'))).toBe('LINK_INVALID');
    expect(user.verified).toBe(false);
  });

  it('marks the account verified once and announces the change', async () => {
    const user = accounts.addUser({ email: 'ada@example.com' });
    await accounts.insertActionToken(user.id, 'verify', hashToken('t'), new Date(Date.now() + 60_000));
    expect(await service.verifyEmail('t')).toEqual({ success: true });
    expect(user.verified).toBe(true);
    expect(events.changed).toEqual([{ userId: user.id }]);
    expect(await code(service.verifyEmail('t'))).toBe('LINK_INVALID');
  });
});

describe('password reset', () => {
  it('requestPasswordReset queues the trimmed address without looking it up', async () => {
    expect(await service.requestPasswordReset(' nobody@example.com ')).toEqual({ success: true });
    expect(mail.jobs).toEqual([{ kind: 'reset', email: 'nobody@example.com' }]);
  });

  it('requestPasswordReset answers UNAVAILABLE when the queue is unreachable', async () => {
    mail.failing = true;
    expect(await code(service.requestPasswordReset('ada@example.com'))).toBe('UNAVAILABLE');
  });

  it('resetMail composes nothing for an unknown or inactive account', async () => {
    accounts.addUser({ email: 'ada@example.com', active: false });
    expect(await service.resetMail('nobody@example.com')).toBeNull();
    expect(await service.resetMail('ada@example.com')).toBeNull();
    expect(accounts.actionTokens).toEqual([]);
  });

  it('resetPassword refuses an invalid link and checkResetLink too', async () => {
    expect(await code(service.resetPassword('no such token', 'a new password'))).toBe('LINK_INVALID');
    expect(await code(service.checkResetLink('no such token'))).toBe('LINK_INVALID');
    expect(events.revokedEvents).toEqual([]);
  });

  it('a reset link from the mail sets the new password once, ends every session and announces it', async () => {
    const user = accounts.addUser({ email: 'ada@example.com', passwordHash });
    await sessionOf(user);
    const message = await service.resetMail('ADA@example.com');
    const token = /\/login#!\/reset\/([\w-]+)/.exec(message?.text ?? '')?.[1] ?? '';
    expect(await service.checkResetLink(token)).toEqual({ success: true });
    expect(await service.resetPassword(token, 'a brand new password')).toEqual({ success: true });
    expect(user.passwordHash).not.toBe(passwordHash);
    expect(accounts.sessions.every((s) => s.endedAt !== null)).toBe(true);
    expect(events.revokedEvents).toEqual([{ userId: user.id }]);
    expect(await code(service.signIn('ada@example.com', 'a brand new password'))).toBe('resolved');
    expect(await code(service.resetPassword(token, 'another one'))).toBe('LINK_INVALID');
  });
});

describe('sendMessage', () => {
  it('queues a message with a key once per key, and the key stays out of the queued message', async () => {
    const user = accounts.addUser({ email: 'ada@example.com' });
    const message = { toUserId: user.id, subject: 'Your receipt', text: 'Thanks', key: 'event-1:buyer' };
    expect(await service.sendMessage(message)).toEqual({ success: true });
    expect(await service.sendMessage(message)).toEqual({ success: true });
    await service.sendMessage({ ...message, key: 'event-1:seller' });
    expect(mail.keys).toEqual(['event-1:buyer', 'event-1:seller']);
    expect(mail.jobs).toHaveLength(2);
    expect(mail.jobs[0]).toEqual({ kind: 'message', message: { toUserId: user.id, subject: 'Your receipt', text: 'Thanks' } });
  });

  it('queues every message without a key', async () => {
    await service.sendMessage({ to: 'bob@example.com', subject: 'Hello', text: 'One' });
    await service.sendMessage({ to: 'bob@example.com', subject: 'Hello', text: 'One' });
    expect(mail.jobs).toHaveLength(2);
    expect(mail.keys).toEqual([]);
  });

  it('answers UNAVAILABLE when the mail cannot be queued (the caller tries again with the same key)', async () => {
    mail.failing = true;
    expect(await code(service.sendMessage({ to: 'bob@example.com', subject: 'Hello', text: 'One', key: 'k' }))).toBe('UNAVAILABLE');
    mail.failing = false;
    await service.sendMessage({ to: 'bob@example.com', subject: 'Hello', text: 'One', key: 'k' });
    expect(mail.jobs).toHaveLength(1);
  });
});
