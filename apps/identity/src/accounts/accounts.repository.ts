import { randomUUID } from 'node:crypto';
import { IsNull, MoreThan, type DataSource, type Repository } from 'typeorm';
import { SessionEntity } from './session.entity.js';
import { UserEntity } from './user.entity.js';

export class EmailTakenError extends Error {}

/** The only place that touches TypeORM for users and sessions. */
export class AccountsRepository {
  private readonly users: Repository<UserEntity>;
  private readonly sessions: Repository<SessionEntity>;

  constructor(dataSource: DataSource) {
    this.users = dataSource.getRepository(UserEntity);
    this.sessions = dataSource.getRepository(SessionEntity);
  }

  async insertUser(email: string, passwordHash: string): Promise<UserEntity> {
    try {
      return await this.users.save(this.users.create({ id: randomUUID(), email, passwordHash }));
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new EmailTakenError(email);
      throw error;
    }
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
  }

  async updateProfile(id: string, changes: { name?: string; tz?: string }): Promise<void> {
    if (Object.keys(changes).length > 0) await this.users.update({ id }, changes);
  }

  async insertSession(userId: string, tokenHash: string, expiresAt: Date): Promise<SessionEntity> {
    return this.sessions.save(this.sessions.create({ id: randomUUID(), userId, tokenHash, expiresAt, endedAt: null }));
  }

  /** A session that has not ended and has not expired. */
  findLiveSession(tokenHash: string): Promise<SessionEntity | null> {
    return this.sessions.findOneBy({ tokenHash, endedAt: IsNull(), expiresAt: MoreThan(new Date()) });
  }

  async endSession(id: string): Promise<void> {
    await this.sessions.update({ id, endedAt: IsNull() }, { endedAt: new Date() });
  }
}
