import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppError, type OAuthModel } from '@tinkerdesk/contracts';
import { sql, storedId, type IdempotentCreate } from '@tinkerdesk/persistence';
import { DataSource, In, IsNull, Not, Raw, type Repository } from 'typeorm';
import { IDENTITY_KEYS } from '../database/idempotency-keys.js';
import { OAuthAppEntity } from './oauth-app.entity.js';
import { OAuthRecordEntity } from './oauth-record.entity.js';

export type OAuthAppRow = OAuthAppEntity;
/** What the owner may change after registration. */
export type OAuthAppDetailsRow = Pick<
  OAuthAppRow,
  'name' | 'redirectUris' | 'developerName' | 'developerContact' | 'homepageUrl' | 'privacyUrl' | 'termsUrl'
>;

export interface GrantRow {
  id: string;
  clientId: string;
  appName: string;
  payload: Record<string, unknown>;
  created: Date;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** Expired records are deleted a day after they expire, at most once a minute per replica. */
const SWEEP_EVERY_MS = 60_000;

/** The only place that touches the database for OAuth apps and oidc-provider's records. */
@Injectable()
export class OAuthRepository {
  private lastSweep = 0;
  private readonly records: Repository<OAuthRecordEntity>;
  private readonly oauthApps: Repository<OAuthAppEntity>;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.records = db.getRepository(OAuthRecordEntity);
    this.oauthApps = db.getRepository(OAuthAppEntity);
  }

  async upsert(model: OAuthModel, id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void> {
    await sql.execute(
      this.db,
      `INSERT INTO "identity"."oauth_record" ("model", "id", "payload", "grant_id", "uid", "account_id", "client_id", "expires_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8::int > 0 THEN now() + make_interval(secs => $8::int) END)
       ON CONFLICT ("model", "id") DO UPDATE SET "payload" = EXCLUDED."payload", "grant_id" = EXCLUDED."grant_id",
         "uid" = EXCLUDED."uid", "account_id" = EXCLUDED."account_id", "client_id" = EXCLUDED."client_id", "expires_at" = EXCLUDED."expires_at"`,
      [model, id, payload, text(payload.grantId), text(payload.uid), text(payload.accountId), text(payload.clientId), expiresIn],
    );
    if (Date.now() - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = Date.now();
      await this.records.delete({ expiresAt: Raw((column) => `${column} < now() - interval '1 day'`) });
    }
  }

  /** A live record; a consumed one carries `consumed` (seconds since the epoch), as oidc-provider expects. */
  async find(model: OAuthModel, id: string): Promise<Record<string, unknown> | null> {
    return this.findWhere(`"model" = $1 AND "id" = $2`, [model, id]);
  }

  async findSessionByUid(uid: string): Promise<Record<string, unknown> | null> {
    return this.findWhere(`"model" = 'Session' AND "uid" = $1`, [uid]);
  }

  private async findWhere(where: string, params: unknown[]): Promise<Record<string, unknown> | null> {
    const row = await sql.maybeOne<{ payload: Record<string, unknown>; consumed: string | null }>(
      this.db,
      `SELECT "payload", extract(epoch FROM "consumed_at")::bigint AS "consumed" FROM "identity"."oauth_record"
       WHERE ${where} AND ("expires_at" IS NULL OR "expires_at" > now()) LIMIT 1`,
      params,
    );
    if (!row) return null;
    return row.consumed === null ? row.payload : { ...row.payload, consumed: Number(row.consumed) };
  }

  async consume(model: OAuthModel, id: string): Promise<void> {
    await this.records.update({ model, id }, { consumedAt: () => 'now()' });
  }

  async destroy(model: OAuthModel, id: string): Promise<void> {
    await this.records.delete({ model, id });
  }

  /** Every code and token of a grant (and the grant itself) goes. */
  async revokeGrant(grantId: string): Promise<void> {
    await this.records
      .createQueryBuilder()
      .delete()
      .where([{ grantId }, { model: 'Grant', id: grantId }])
      .execute();
  }

  /**
   * Registers an app unless the account has `maxPerUser` (undefined then). Under an Idempotency-Key,
   * the key is claimed in the insert's transaction (IdempotencyKeys.once): the same request again, or
   * alongside, answers the first app (another id than `app`'s: the caller tells a replay by it).
   */
  async insertApp(app: Omit<OAuthAppRow, 'created'>, maxPerUser: number, idempotent?: IdempotentCreate): Promise<OAuthAppRow | undefined> {
    let full = false;
    const made = await this.db
      .transaction(async (tx) => {
        // One registration at a time per account, so a burst cannot pass the limit.
        await sql.execute(tx, `SELECT pg_advisory_xact_lock(hashtext('oauth_app:' || $1))`, [app.userId]);
        const apps = tx.getRepository(OAuthAppEntity);
        return IDENTITY_KEYS.once(tx, idempotent, async () => {
          if ((await apps.countBy({ userId: app.userId })) >= maxPerUser) {
            full = true;
            throw new AppLimitReached();
          }
          await apps.insert(apps.create(app));
          return { id: app.id };
        });
      })
      .catch((error: unknown) => {
        if (full) return undefined;
        throw error;
      });
    if (made === undefined) return undefined;
    const id = storedId(made.answer);
    const row = id === undefined ? undefined : await this.app(id);
    if (!row) throw new AppError('NOT_FOUND', 'the app registered under this Idempotency-Key was deleted since');
    return row;
  }

  async app(id: string): Promise<OAuthAppRow | undefined> {
    return (await this.oauthApps.findOneBy({ id })) ?? undefined;
  }

  apps(userId: string): Promise<OAuthAppRow[]> {
    return this.oauthApps.find({ where: { userId }, order: { created: 'DESC', id: 'ASC' } });
  }

  /** Replaces the secret of the user's confidential app; undefined when it is not theirs or has no secret. */
  async replaceSecret(userId: string, appId: string, secretHash: string): Promise<OAuthAppRow | undefined> {
    return this.db.transaction(async (tx) => {
      const apps = tx.getRepository(OAuthAppEntity);
      const changed = await apps.update({ id: appId, userId, secretHash: Not(IsNull()) }, { secretHash });
      if (!changed.affected) return undefined;
      return (await apps.findOneBy({ id: appId })) ?? undefined;
    });
  }

  /** Changes the user's app; undefined when it is not theirs. */
  async updateApp(userId: string, appId: string, changes: Partial<OAuthAppDetailsRow>): Promise<OAuthAppRow | undefined> {
    if (Object.keys(changes).length > 0) {
      const changed = await this.oauthApps.update({ id: appId, userId }, changes);
      if (!changed.affected) return undefined;
    }
    return (await this.oauthApps.findOneBy({ id: appId, userId })) ?? undefined;
  }

  /**
   * Deletes the user's app with every record of it (its grants, codes and tokens); the ids of the
   * grants that ended, or undefined when the app is not theirs.
   */
  async deleteApp(userId: string, appId: string): Promise<string[] | undefined> {
    return this.db.transaction(async (tx) => {
      const deleted = await tx.getRepository(OAuthAppEntity).delete({ id: appId, userId });
      if (!deleted.affected) return undefined;
      const records = tx.getRepository(OAuthRecordEntity);
      const grants = await records.find({ select: { id: true }, where: { model: 'Grant', clientId: appId } });
      await records.delete({ clientId: appId });
      return grants.map((g) => g.id);
    });
  }

  /**
   * Ends the consent a user gave an app: every grant of that app for that user (one per browser or
   * device that authorized it) with every code and token issued under them, in one transaction.
   * `id` is the app's id or the id of one of those grants. The ids of the grants that ended; none
   * when the user gave that app no consent.
   */
  async endConsent(userId: string, id: string): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const grants = await sql.rows<{ id: string }>(
        tx,
        `SELECT g."id" FROM "identity"."oauth_record" g
         WHERE g."model" = 'Grant' AND g."account_id" = $1 AND g."client_id" IN (
           SELECT c."client_id" FROM "identity"."oauth_record" c
           WHERE c."model" = 'Grant' AND c."account_id" = $1 AND (c."client_id" = $2 OR c."id" = $2))
         FOR UPDATE`,
        [userId, id],
      );
      const ids = grants.map((g) => g.id);
      if (ids.length > 0) {
        await tx
          .getRepository(OAuthRecordEntity)
          .createQueryBuilder()
          .delete()
          .where([{ grantId: In(ids) }, { model: 'Grant', id: In(ids) }])
          .execute();
      }
      return ids;
    });
  }

  /** The live grants a user gave, with their app's name. */
  async liveGrants(accountId: string): Promise<GrantRow[]> {
    const rows = await sql.rows<{ id: string; client_id: string; payload: Record<string, unknown>; app_name: string }>(
      this.db,
      `SELECT r."id", r."client_id", r."payload", a."name" AS "app_name", a."created" AS "app_created"
       FROM "identity"."oauth_record" r JOIN "identity"."oauth_app" a ON a."id"::text = r."client_id"
       WHERE r."model" = 'Grant' AND r."account_id" = $1 AND (r."expires_at" IS NULL OR r."expires_at" > now())
       ORDER BY (r."payload"->>'iat')::bigint DESC, r."id"`,
      [accountId],
    );
    return rows.map((r) => ({
      id: r.id,
      clientId: r.client_id,
      appName: r.app_name,
      payload: r.payload,
      created: new Date(Number(r.payload.iat ?? 0) * 1000),
    }));
  }
}

/** Thrown inside a registration's transaction when the account has all the apps it may: rolls it back (its key too). */
class AppLimitReached extends Error {}
