import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sql } from '@tinkerdesk/persistence';
import { DataSource, Raw, type Repository } from 'typeorm';
import { OidcLoginEntity } from './oidc-login.entity.js';

export interface PendingLogin {
  provider: string;
  codeVerifier: string;
  nonce: string;
  returnTo: string | null;
}

/** The only place that touches TypeORM for pending social sign-ins. */
@Injectable()
export class OidcLoginsRepository {
  private readonly logins: Repository<OidcLoginEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.logins = dataSource.getRepository(OidcLoginEntity);
  }

  /** Stores a pending sign-in and drops those that expired more than a day ago. */
  async insert(login: PendingLogin & { stateHash: string; expiresAt: Date }): Promise<void> {
    await this.logins.save(this.logins.create({ id: randomUUID(), ...login, usedAt: null }));
    await this.logins.delete({ expiresAt: Raw((column) => `${column} < now() - interval '1 day'`) });
  }

  /** Uses a pending sign-in once, atomically; undefined when unknown, used already or expired. */
  async consume(stateHash: string): Promise<PendingLogin | undefined> {
    const row = await sql.maybeOne<{ provider: string; code_verifier: string; nonce: string; return_to: string | null }>(
      this.dataSource,
      `UPDATE "identity"."oidc_login" SET "used_at" = now()
       WHERE "state_hash" = $1 AND "used_at" IS NULL AND "expires_at" > now()
       RETURNING "provider", "code_verifier", "nonce", "return_to"`,
      [stateHash],
    );
    return row ? { provider: row.provider, codeVerifier: row.code_verifier, nonce: row.nonce, returnTo: row.return_to } : undefined;
  }
}
