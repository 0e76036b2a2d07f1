import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppError, IDENTITY_DOMAIN_EVENTS } from '@tinkerdesk/contracts';
import {
  entityColumns,
  isUniqueViolation,
  recordOutboxEvents,
  sql,
  storedId,
  type IdempotentCreate,
  type NamedStatement,
  type SqlRunner,
} from '@tinkerdesk/persistence';
import { DataSource, In, IsNull, Raw, type EntityManager, type Repository } from 'typeorm';
import { IDENTITY_KEYS } from '../database/idempotency-keys.js';
import { ActionTokenEntity, type ActionPurpose } from './action-token.entity.js';
import { ExchangeCodeEntity, type CodeKind } from './exchange-code.entity.js';
import { KnownDeviceEntity } from './known-device.entity.js';
import { SessionEntity } from './session.entity.js';
import { UserEntity } from './user.entity.js';

export type { CodeKind } from './exchange-code.entity.js';

export class EmailTakenError extends Error {}

/** What a social sign-in sets on the account it creates. */
export type SocialAccountFields = Pick<UserEntity, 'provider' | 'providerSubject' | 'name' | 'verified'>;

/** A column compared with the database's clock, not the service's. */
const afterNow = Raw((column) => `${column} > now()`);

/** The only place that touches TypeORM for users, sessions, codes and action tokens. */
@Injectable()
export class AccountsRepository {
  private readonly users: Repository<UserEntity>;
  private readonly sessions: Repository<SessionEntity>;
  private readonly knownDevices: Repository<KnownDeviceEntity>;
  private readonly codes: Repository<ExchangeCodeEntity>;
  private readonly actionTokens: Repository<ActionTokenEntity>;
  /** The live session of a token, prepared on each pooled connection: every signed-in request the gateway has not cached asks it. */
  private readonly liveSession: NamedStatement;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.users = dataSource.getRepository(UserEntity);
    this.sessions = dataSource.getRepository(SessionEntity);
    this.knownDevices = dataSource.getRepository(KnownDeviceEntity);
    this.codes = dataSource.getRepository(ExchangeCodeEntity);
    this.actionTokens = dataSource.getRepository(ActionTokenEntity);
    this.liveSession = {
      name: 'identity_live_session',
      text: `SELECT ${entityColumns(dataSource, SessionEntity)} FROM "identity"."session"
        WHERE "token_hash" = $1 AND "ended_at" IS NULL AND "expires_at" > $2 LIMIT 1`,
    };
  }

  /**
   * A new account; a taken email (any letter case) or provider subject throws EmailTakenError. One
   * created verified (a provider vouches for its address) records `identity.email.verified` with it.
   */
  async insertUser(email: string, passwordHash: string | null, social?: SocialAccountFields | Pick<UserEntity, 'tz'>): Promise<UserEntity> {
    return (await this.insertUserOnce(email, passwordHash, social, undefined)).user;
  }

  /**
   * `insertUser`, under an Idempotency-Key once (a sign-up): the key is claimed in the insert's
   * transaction, and the same request alongside answers the account it made (`replayed`; the caller
   * checks the password before it answers a session).
   */
  async insertUserOnce(
    email: string,
    passwordHash: string | null,
    social: SocialAccountFields | Pick<UserEntity, 'tz'> | undefined,
    idempotent: IdempotentCreate | undefined,
  ): Promise<{ user: UserEntity; replayed: boolean }> {
    let made: UserEntity | undefined;
    let answer: { id: string };
    let replayed: boolean;
    try {
      ({ answer, replayed } = await this.dataSource.transaction((manager) =>
        IDENTITY_KEYS.once(manager, idempotent, async () => {
          made = await manager.getRepository(UserEntity).save(this.users.create({ id: randomUUID(), email, passwordHash, ...social }));
          if (made.verified) await recordEmailVerified(manager, made.id, made.email);
          return { id: made.id };
        }),
      ));
    } catch (error) {
      if (isUniqueViolation(error)) throw new EmailTakenError(email);
      throw error;
    }
    if (made && !replayed) return { user: made, replayed };
    const first = await this.findById(answer.id);
    if (!first) throw new AppError('NOT_FOUND', 'the account made under this Idempotency-Key no longer exists');
    return { user: first, replayed: true };
  }

  /** The account id stored under a sign-up's key when the same request came before (IdempotencyKeys.replay). */
  async replayedUser(idempotent: IdempotentCreate | undefined): Promise<string | undefined> {
    return storedId(await IDENTITY_KEYS.replay(this.dataSource, idempotent));
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  findByProviderSubject(provider: string, providerSubject: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ provider, providerSubject });
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
  }

  async updateProfile(id: string, changes: { name?: string; tz?: string }): Promise<void> {
    if (Object.keys(changes).length > 0) await this.users.update({ id }, changes);
  }

  async insertSession(userId: string, tokenHash: string, expiresAt: Date, impersonatorId: string | null = null): Promise<SessionEntity> {
    return this.sessions.save(this.sessions.create({ id: randomUUID(), userId, tokenHash, expiresAt, endedAt: null, impersonatorId }));
  }

  /** Which of these device-cookie token hashes is a live known device of the account (its id and hash), if any. */
  async findKnownDevice(userId: string, tokenHashes: string[]): Promise<{ id: string; hash: string } | undefined> {
    if (tokenHashes.length === 0) return undefined;
    const device = await this.knownDevices.findOne({
      select: { id: true, tokenHash: true },
      where: { userId, tokenHash: In(tokenHashes), expiresAt: afterNow },
    });
    return device ? { id: device.id, hash: device.tokenHash } : undefined;
  }

  async insertKnownDevice(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.knownDevices.insert({ id: randomUUID(), userId, tokenHash, expiresAt });
  }

  /** A known device signed in again: it stays known for another full period. */
  async renewKnownDevice(id: string, expiresAt: Date): Promise<void> {
    await this.knownDevices.update({ id }, { lastUsed: () => 'now()', expiresAt });
  }

  async insertCode(userId: string, kind: CodeKind, codeHash: string, issuedBy: string, expiresAt: Date): Promise<void> {
    await this.codes.insert({ id: randomUUID(), userId, kind, codeHash, issuedBy, expiresAt });
  }

  /** Uses a code once, atomically; answers its account, kind and issuer, or undefined. */
  async consumeCode(codeHash: string): Promise<{ userId: string; kind: CodeKind; issuedBy: string } | undefined> {
    const row = await sql.maybeOne<{ user_id: string; kind: CodeKind; issued_by: string }>(
      this.dataSource,
      `UPDATE "identity"."exchange_code" SET "used_at" = now()
       WHERE "code_hash" = $1 AND "used_at" IS NULL AND "expires_at" > now()
       RETURNING "user_id", "kind", "issued_by"`,
      [codeHash],
    );
    return row ? { userId: row.user_id, kind: row.kind, issuedBy: row.issued_by } : undefined;
  }

  async setRole(email: string, role: 'user' | 'admin'): Promise<boolean> {
    const user = await this.findByEmail(email);
    if (!user) return false;
    await this.users.update({ id: user.id }, { role });
    return true;
  }

  /** A session that has not ended and has not expired. */
  /** Not ended and not expired by the service's clock (as TypeORM's MoreThan(new Date()) read it before). */
  async findLiveSession(tokenHash: string): Promise<SessionEntity | null> {
    return (await sql.maybeOne<SessionEntity>(this.dataSource, this.liveSession, [tokenHash, new Date()])) ?? null;
  }

  async endSession(id: string): Promise<void> {
    await this.sessions.update({ id, endedAt: IsNull() }, { endedAt: new Date() });
  }

  async insertActionToken(userId: string, purpose: ActionPurpose, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.actionTokens.save(this.actionTokens.create({ id: randomUUID(), userId, purpose, tokenHash, expiresAt, usedAt: null }));
  }

  /**
   * Uses a token once, atomically: only an unused, unexpired token of that purpose matches, and
   * marking it used happens in the same statement, so two concurrent uses cannot both succeed.
   */
  private async consume(runner: SqlRunner, tokenHash: string, purpose: ActionPurpose): Promise<string | undefined> {
    const row = await sql.maybeOne<{ user_id: string }>(
      runner,
      `UPDATE "identity"."action_token" SET "used_at" = now()
       WHERE "token_hash" = $1 AND "purpose" = $2 AND "used_at" IS NULL AND "expires_at" > now()
       RETURNING "user_id"`,
      [tokenHash, purpose],
    );
    return row?.user_id;
  }

  /** Whether a token of that purpose is unused and unexpired (without using it). */
  async isLiveActionToken(tokenHash: string, purpose: ActionPurpose): Promise<boolean> {
    return this.actionTokens.exists({ where: { tokenHash, purpose, usedAt: IsNull(), expiresAt: afterNow } });
  }

  /**
   * Marks the account of a verification token verified, and records `identity.email.verified` with the
   * address it verified, in the same transaction; undefined when the token is not usable.
   */
  async verifyWithToken(tokenHash: string): Promise<string | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const userId = await this.consume(manager, tokenHash, 'verify');
      if (!userId) return undefined;
      const users = manager.getRepository(UserEntity);
      await users.update({ id: userId }, { verified: true });
      const user = await users.findOneByOrFail({ id: userId });
      await recordEmailVerified(manager, userId, user.email);
      return userId;
    });
  }

  /** Sets a new password with a reset token and ends every session of the account, all or nothing. */
  async resetWithToken(tokenHash: string, passwordHash: string): Promise<string | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const userId = await this.consume(manager, tokenHash, 'reset');
      if (!userId) return undefined;
      await manager.getRepository(UserEntity).update({ id: userId }, { passwordHash });
      await manager.getRepository(SessionEntity).update({ userId, endedAt: IsNull() }, { endedAt: new Date() });
      return userId;
    });
  }
}

/** The outbox event of an address an account proved it holds (published after the commit). */
async function recordEmailVerified(manager: EntityManager, userId: string, email: string): Promise<void> {
  await recordOutboxEvents(manager, 'identity', [
    { name: IDENTITY_DOMAIN_EVENTS.emailVerified, aggregateType: 'user', aggregateId: userId, payload: { userId, email } },
  ]);
}
