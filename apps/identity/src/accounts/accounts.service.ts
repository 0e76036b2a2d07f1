import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  type AuthResult,
  type CodeKind,
  type CodeView,
  type LogoutResult,
  type OidcProviderId,
  type Profile,
  type PublicProfile,
  type SendMailMessage,
  type SessionInfo,
  type SignInResult,
  canonicalTimeZone,
  DEVICE_COOKIE_PREFIX,
  RETURN_TO_PATTERN,
} from '@tinkerdesk/contracts';
import { createHash } from 'node:crypto';
import type { Logger } from '@tinkerdesk/nest-common';
import { IDEMPOTENCY_REFUSALS, idempotencyScope, type IdempotentCreate } from '@tinkerdesk/persistence';
import { IDENTITY_LOGGER } from '../logger.token.js';
import { MailQueue } from '../mail/mail-queue.js';
import type { MailMessage } from '../mail/mailer.js';
import { AccountsRepository, EmailTakenError } from './accounts.repository.js';
import { decoyHash, hashPassword, verifyPassword } from './passwords.js';
import { IDENTITY_EVENTS, type IdentityEvents } from './identity-events.js';
import { SignInLimiter } from './sign-in-limiter.js';
import { hashToken, newToken } from './tokens.js';
import type { UserEntity } from './user.entity.js';

const SESSION_DAYS = 30;
const VERIFY_HOURS = 48;
const RESET_MINUTES = 60;
const CODE_SECONDS = 120;
/** How long a browser stays a known device of an account after its last sign-in there. */
const DEVICE_DAYS = 180;

/** One device cookie per account on a browser: its name carries a hash of the account, never the account itself. */
export function deviceCookieName(userId: string): string {
  return `${DEVICE_COOKIE_PREFIX}${createHash('sha256').update(userId).digest('hex').slice(0, 16)}`;
}

export const PUBLIC_URL = Symbol('PUBLIC_URL');
export const SIGN_IN_LIMITER = Symbol('SIGN_IN_LIMITER');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BAD_CREDENTIALS = 'the email address or the password is wrong';
const RESET_LINK_INVALID = 'this reset link is not valid: it was used already or has expired';

export function toProfile(user: UserEntity): Profile {
  return {
    guid: user.id,
    name: user.name,
    // Accounts saved before a zone was renamed (Europe/Kiev) show its current name (Europe/Kyiv).
    tz: canonicalTimeZone(user.tz) ?? user.tz,
    active: user.active,
    email: user.email,
    verified: user.verified,
    context: user.context,
  };
}

/** Who a social sign-in provider says signed in (from its validated ID token and userinfo). */
export interface ProviderIdentity {
  provider: OidcProviderId;
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

@Injectable()
export class AccountsService {
  constructor(
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
    @Inject(MailQueue) private readonly mail: MailQueue,
    @Inject(SIGN_IN_LIMITER) private readonly limiter: SignInLimiter,
    @Inject(PUBLIC_URL) private readonly publicUrl: string,
    @Inject(IDENTITY_LOGGER) private readonly logger: Logger,
    @Inject(IDENTITY_EVENTS) private readonly events: IdentityEvents,
  ) {}

  private async startSession(user: UserEntity, impersonatorId: string | null = null): Promise<AuthResult> {
    const token = newToken();
    await this.accounts.insertSession(user.id, hashToken(token), new Date(Date.now() + SESSION_DAYS * 86_400_000), impersonatorId);
    return { profile: toProfile(user), token, verified: user.verified };
  }

  /**
   * tz: the browser's zone, a hint: stored by its current name, or UTC when it is not a known zone.
   *
   * Under an Idempotency-Key (`keyed`), a retry of a sign-up that succeeded (a reply lost on its way)
   * answers the same account with a new session instead of EMAIL_IN_USE. The password is not part of the
   * key's stored fingerprint (a fast hash of it would be weaker than the account's own): the retry's
   * password is checked against the account's, and counted, as a sign-in's is; another password is
   * "a different request" (409), so the key never opens a session a sign-in would not.
   */
  async signUp(
    email: string,
    password: string,
    tz?: string,
    returnTo?: string,
    keyed?: { key: string; clientAddress?: string | undefined },
  ): Promise<AuthResult> {
    const normalized = email.trim();
    const idempotent: IdempotentCreate | undefined = keyed && {
      scope: idempotencyScope('user.create', 'visitor'),
      key: keyed.key,
      request: { email: normalized.toLowerCase(), tz: tz ?? null, returnTo: returnTo ?? null },
    };
    const earlier = await this.accounts.replayedUser(idempotent);
    if (earlier !== undefined) return this.signUpAgain(earlier, password, keyed?.clientAddress);
    const passwordHash = await hashPassword(password);
    const zone = tz === undefined ? undefined : canonicalTimeZone(tz);
    try {
      const { user, replayed } = await this.accounts.insertUserOnce(normalized, passwordHash, zone ? { tz: zone } : undefined, idempotent);
      // The same sign-up ran alongside under the key and made the account: answered as a retry.
      if (replayed) return await this.signUpAgain(user.id, password, keyed?.clientAddress);
      const session = await this.startSession(user);
      // The verification email goes through the mail queue: a slow or failing mail server never fails a
      // sign-up, and if even the queue is unreachable the account can ask for the email again.
      await this.mail
        .enqueue({ kind: 'verification', userId: user.id, ...(returnTo ? { returnTo } : {}) })
        .catch((error: unknown) =>
          this.logger.error({ err: error, userId: user.id }, 'could not queue the verification email after sign-up'),
        );
      return session;
    } catch (error) {
      if (error instanceof EmailTakenError) {
        throw new AppError('EMAIL_IN_USE', 'this email address is already in use', 'error_email_in_use_internal');
      }
      throw error;
    }
  }

  /**
   * A keyed sign-up's retry: a new session of the account the first request made, once the password is
   * the account's (counted against the sign-in limits of the account and the client's address).
   */
  private async signUpAgain(userId: string, password: string, clientAddress = 'unknown'): Promise<AuthResult> {
    const user = await this.accounts.findById(userId);
    if (!user?.active) throw new AppError('NOT_FOUND', 'the account made under this Idempotency-Key no longer exists');
    const account = `user:${user.id}`;
    await this.limiter.attempt(account, clientAddress);
    if (!user.passwordHash || !(await verifyPassword(user.passwordHash, password))) {
      await this.limiter.failed(account, clientAddress);
      throw new AppError('CONFLICT', IDEMPOTENCY_REFUSALS.mismatch);
    }
    await this.limiter.succeeded(account, clientAddress);
    return this.startSession(user);
  }

  /**
   * Social sign-in: the account of this provider subject gets a session; otherwise an email already
   * in use (by any account, any letter case) is a conflict keyed by the provider; otherwise a new
   * account without a password is created, verified as the provider says.
   */
  async signInWithProvider(who: ProviderIdentity): Promise<AuthResult> {
    const known = await this.accounts.findByProviderSubject(who.provider, who.subject);
    if (known) return this.providerSession(known);
    const inUse = new AppError('EMAIL_IN_USE', 'this email address is already in use', `error_email_in_use_${who.provider}`);
    if (await this.accounts.findByEmail(who.email)) throw inUse;
    try {
      const user = await this.accounts.insertUser(who.email, null, {
        provider: who.provider,
        providerSubject: who.subject,
        name: who.name,
        verified: who.emailVerified,
      });
      return await this.startSession(user);
    } catch (error) {
      if (!(error instanceof EmailTakenError)) throw error;
      // A concurrent first sign-in of the same subject created the account a moment ago.
      const raced = await this.accounts.findByProviderSubject(who.provider, who.subject);
      if (raced) return this.providerSession(raced);
      throw inUse;
    }
  }

  private async providerSession(user: UserEntity): Promise<AuthResult> {
    if (!user.active) throw new AppError('UNAUTHORIZED', 'this account is not active');
    return this.startSession(user);
  }

  /**
   * The identifier is the account's guid or its email; unknown accounts and wrong passwords answer
   * alike. The try is counted for the account (its guid and email alike) and the client address
   * before the password is checked (sign-in-limiter.ts).
   */
  async signIn(identifier: string, password: string, clientAddress = 'unknown', deviceTokens: string[] = []): Promise<SignInResult> {
    const user = UUID.test(identifier) ? await this.accounts.findById(identifier) : await this.accounts.findByEmail(identifier.trim());
    const account = user ? `user:${user.id}` : `unknown:${identifier.trim().toLowerCase()}`;
    // A browser that signed in to this account before keeps a budget of its own (device cookies).
    const presented = deviceTokens.map((token) => ({ token, hash: hashToken(token) }));
    const device = user
      ? await this.accounts.findKnownDevice(
          user.id,
          presented.map((p) => p.hash),
        )
      : undefined;
    await this.limiter.attempt(account, clientAddress, device?.id);
    const ok = user?.passwordHash
      ? await verifyPassword(user.passwordHash, password)
      : (await verifyPassword(await decoyHash(), password), false);
    if (!user || !ok || !user.active) {
      await this.limiter.failed(account, clientAddress, device?.id);
      throw new AppError('UNAUTHORIZED', BAD_CREDENTIALS);
    }
    await this.limiter.succeeded(account, clientAddress, device?.id);
    const expires = new Date(Date.now() + DEVICE_DAYS * 86_400_000);
    let deviceToken = presented.find((p) => p.hash === device?.hash)?.token;
    if (device) {
      await this.accounts.renewKnownDevice(device.id, expires);
    } else {
      deviceToken = newToken();
      await this.accounts.insertKnownDevice(user.id, hashToken(deviceToken), expires);
    }
    const session = await this.startSession(user);
    return {
      ...session,
      device: deviceToken ? { name: deviceCookieName(user.id), token: deviceToken, maxAgeSeconds: DEVICE_DAYS * 86_400 } : undefined,
    };
  }

  async verifySession(token: string): Promise<SessionInfo> {
    const session = await this.accounts.findLiveSession(hashToken(token));
    if (!session) throw new AppError('INVALID_TOKEN', 'the session token is not valid; sign in again');
    return { userId: session.userId, sessionId: session.id };
  }

  /** Ends the session at once; ending an impersonation gives the administrator a session back. */
  async logout(token: string): Promise<LogoutResult> {
    const session = await this.accounts.findLiveSession(hashToken(token));
    if (!session) throw new AppError('INVALID_TOKEN', 'the session token is not valid; sign in again');
    await this.accounts.endSession(session.id);
    await this.events.revoked({ sessionId: session.id });
    if (session.impersonatorId) {
      const admin = await this.accounts.findById(session.impersonatorId);
      if (admin?.active) return { success: true, ...(await this.startSession(admin)) };
    }
    return { success: true };
  }

  /**
   * A single-use code, valid for two minutes: tokenswap for one's own account; impersonate, for
   * administrators only, for another account.
   */
  async createCode(userId: string, kind: CodeKind, target: string | undefined): Promise<CodeView> {
    const issuer = await this.accounts.findById(userId);
    if (!issuer) throw new AppError('IDENTIFIER_NOT_FOUND', 'the account of this session no longer exists');
    let subject = issuer;
    if (kind === 'impersonate') {
      if (issuer.role !== 'admin') throw new AppError('FORBIDDEN', 'only administrators can impersonate');
      if (!target) throw new AppError('VALIDATION_FAILED', 'user is required to impersonate (guid or email)');
      const found = UUID.test(target) ? await this.accounts.findById(target) : await this.accounts.findByEmail(target.trim());
      if (!found) throw new AppError('NOT_FOUND', `no user ${target}`);
      subject = found;
    } else if (target !== undefined && target !== issuer.id && target.toLowerCase() !== issuer.email.toLowerCase()) {
      throw new AppError('FORBIDDEN', 'a tokenswap code is only for your own account');
    }
    const code = newToken();
    const expires = new Date(Date.now() + CODE_SECONDS * 1000);
    await this.accounts.insertCode(subject.id, kind, hashToken(code), issuer.id, expires);
    return { code, kind, expires: expires.toISOString() };
  }

  async exchangeCode(code: string): Promise<AuthResult> {
    const used = await this.accounts.consumeCode(hashToken(code));
    if (!used) throw new AppError('LINK_INVALID', 'this code is not valid: it was used already or has expired');
    const user = await this.accounts.findById(used.userId);
    if (!user?.active) throw new AppError('IDENTIFIER_NOT_FOUND', 'the account of this code no longer exists');
    return this.startSession(user, used.kind === 'impersonate' ? used.issuedBy : null);
  }

  async me(userId: string): Promise<Profile> {
    const user = await this.accounts.findById(userId);
    if (!user) throw new AppError('IDENTIFIER_NOT_FOUND', 'the account of this session no longer exists');
    return toProfile(user);
  }

  async update(userId: string, changes: { name?: string; tz?: string }): Promise<Profile> {
    const clean: { name?: string; tz?: string } = {};
    if (changes.name !== undefined) clean.name = changes.name.trim();
    // Validated as a known zone (current or old name); kept by its current name.
    if (changes.tz !== undefined) clean.tz = canonicalTimeZone(changes.tz) ?? changes.tz;
    await this.accounts.updateProfile(userId, clean);
    await this.events.userChanged({ userId });
    return this.me(userId);
  }

  async publicProfile(id: string): Promise<PublicProfile> {
    const user = await this.accounts.findById(id);
    if (!user || !user.active) throw new AppError('NOT_FOUND', `no user ${id}`);
    return { guid: user.id, name: user.name };
  }

  /** Emails a single-use link that marks the account verified; `sent` is false when it already is. */
  async requestVerification(userId: string, returnTo?: string): Promise<{ success: true; sent: boolean }> {
    const user = await this.accounts.findById(userId);
    if (!user) throw new AppError('IDENTIFIER_NOT_FOUND', 'the account of this session no longer exists');
    if (user.verified) return { success: true, sent: false };
    await this.enqueue({ kind: 'verification', userId: user.id, ...(returnTo ? { returnTo } : {}) });
    return { success: true, sent: true };
  }

  /**
   * The mail worker's composer of a verification email: a fresh single-use link, or null once verified.
   * With `returnTo` (a path on this site, checked again by the gateway), the link leads there once it
   * has verified the address (the order the visitor signed up from), else to /account.
   */
  async verificationMail(userId: string, returnTo?: string): Promise<MailMessage | null> {
    const user = await this.accounts.findById(userId);
    if (!user || user.verified) return null;
    const token = newToken();
    await this.accounts.insertActionToken(user.id, 'verify', hashToken(token), new Date(Date.now() + VERIFY_HOURS * 3_600_000));
    const next = returnTo && RETURN_TO_PATTERN.test(returnTo) ? `&next=${encodeURIComponent(returnTo)}` : '';
    const link = new URL(`/v1/account/verify?token=${token}${next}`, this.publicUrl).toString();
    return {
      to: user.email,
      subject: 'Confirm your email address for Tinkerdesk',
      text: `Hello,\n\nPlease confirm your email address by opening this link (valid for ${VERIFY_HOURS} hours, once):\n\n${link}\n\nIf you did not sign up for Tinkerdesk, ignore this message.\n`,
    };
  }

  /**
   * Queues a message another service asked to send (commerce's receipts, new orders, replies). An
   * account named by id must exist; its address is looked up when the mail is sent.
   */
  async sendMessage(message: SendMailMessage): Promise<{ success: true }> {
    if ((message.toUserId === undefined) === (message.to === undefined)) {
      throw new AppError('VALIDATION_FAILED', 'a message goes to exactly one of toUserId and to');
    }
    if (message.toUserId !== undefined && !(await this.accounts.findById(message.toUserId))) {
      throw new AppError('NOT_FOUND', `no user ${message.toUserId}`);
    }
    const { key, ...mail } = message;
    await this.enqueue({ kind: 'message', message: mail }, key);
    return { success: true };
  }

  /** The account with this verified address (another service's question; never answered over HTTP). */
  async findVerifiedByEmail(email: string): Promise<{ userId: string | null }> {
    const user = await this.accounts.findByEmail(email.trim().toLowerCase());
    return { userId: user && user.verified && user.active ? user.id : null };
  }

  /** The mail worker's composer of a queued message: the addresses resolved now; null when the account is gone. */
  async messageMail(message: SendMailMessage): Promise<MailMessage | null> {
    const addressOf = async (userId: string | undefined, address: string | undefined): Promise<string | undefined> =>
      userId === undefined ? address : (await this.accounts.findById(userId))?.email;
    const to = await addressOf(message.toUserId, message.to);
    if (!to) return null;
    const replyTo = await addressOf(message.replyToUserId, message.replyTo);
    return { to, subject: message.subject, text: message.text, ...(replyTo ? { replyTo } : {}) };
  }

  /** Queues a mail; with an idempotency key, once per key (MailQueue.enqueueOnce). */
  private async enqueue(job: Parameters<MailQueue['enqueue']>[0], key?: string): Promise<void> {
    try {
      if (key === undefined) await this.mail.enqueue(job);
      else await this.mail.enqueueOnce(key, job);
    } catch (error) {
      this.logger.error({ err: error, kind: job.kind }, 'could not queue an email');
      throw new AppError('UNAVAILABLE', 'email cannot be sent right now; try again shortly');
    }
  }

  async verifyEmail(token: string): Promise<{ success: true }> {
    const userId = await this.accounts.verifyWithToken(hashToken(token));
    if (!userId) throw new AppError('LINK_INVALID', 'this verification link is not valid: it was used already or has expired');
    await this.events.userChanged({ userId });
    return { success: true };
  }

  /**
   * Answers alike for every email, in the same time: it only queues the email address, without
   * looking the account up; the mail worker does that (resetMail) after the answer.
   */
  async requestPasswordReset(email: string): Promise<{ success: true }> {
    await this.enqueue({ kind: 'reset', email: email.trim() });
    return { success: true };
  }

  /** The mail worker's composer of a reset email: only an existing, active account gets one. */
  async resetMail(email: string): Promise<MailMessage | null> {
    const user = await this.accounts.findByEmail(email);
    if (!user?.active) return null;
    const token = newToken();
    await this.accounts.insertActionToken(user.id, 'reset', hashToken(token), new Date(Date.now() + RESET_MINUTES * 60_000));
    const link = new URL(`/login#!/reset/${token}`, this.publicUrl).toString();
    return {
      to: user.email,
      subject: 'Reset your Tinkerdesk password',
      text: `Hello,\n\nTo choose a new password, open this link (valid for ${RESET_MINUTES} minutes, once):\n\n${link}\n\nIf you did not ask for this, ignore this message: your password stays as it is.\n`,
    };
  }

  /** Sets the new password and ends every session of the account. */
  async resetPassword(token: string, password: string): Promise<{ success: true }> {
    const userId = await this.accounts.resetWithToken(hashToken(token), await hashPassword(password));
    if (!userId) throw new AppError('LINK_INVALID', RESET_LINK_INVALID);
    await this.events.revoked({ userId });
    return { success: true };
  }

  /** Whether a reset link can still be used (the page checks it when it opens, before a password is typed). */
  async checkResetLink(token: string): Promise<{ success: true }> {
    if (!(await this.accounts.isLiveActionToken(hashToken(token), 'reset'))) throw new AppError('LINK_INVALID', RESET_LINK_INVALID);
    return { success: true };
  }
}
