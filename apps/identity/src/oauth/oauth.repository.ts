import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { OAuthAuthMethod, OAuthModel, OAuthScope } from '@tinkerdesk/contracts';
import type { DataSource } from 'typeorm';
import { updateReturning } from '../accounts/accounts.repository.js';

export interface OAuthAppRow {
  id: string;
  userId: string;
  name: string;
  redirectUris: string[];
  scopes: OAuthScope[];
  authMethod: OAuthAuthMethod;
  secretHash: string | null;
  created: Date;
}

export interface GrantRow {
  id: string;
  clientId: string;
  appName: string;
  payload: Record<string, unknown>;
  created: Date;
}

const toApp = (r: Record<string, unknown>): OAuthAppRow => ({
  id: r.id as string,
  userId: r.user_id as string,
  name: r.name as string,
  redirectUris: r.redirect_uris as string[],
  scopes: r.scopes as OAuthScope[],
  authMethod: r.auth_method as OAuthAuthMethod,
  secretHash: (r.secret_hash as string | null) ?? null,
  created: r.created as Date,
});

const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** Expired records are deleted a day after they expire, at most once a minute per replica. */
const SWEEP_EVERY_MS = 60_000;

/** The only place that touches the database for OAuth apps and oidc-provider's records. */
@Injectable()
export class OAuthRepository {
  private lastSweep = 0;

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async upsert(model: OAuthModel, id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void> {
    await this.db.query(
      `INSERT INTO "identity"."oauth_record" ("model", "id", "payload", "grant_id", "uid", "account_id", "client_id", "expires_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8::int > 0 THEN now() + make_interval(secs => $8::int) END)
       ON CONFLICT ("model", "id") DO UPDATE SET "payload" = EXCLUDED."payload", "grant_id" = EXCLUDED."grant_id",
         "uid" = EXCLUDED."uid", "account_id" = EXCLUDED."account_id", "client_id" = EXCLUDED."client_id", "expires_at" = EXCLUDED."expires_at"`,
      [model, id, payload, text(payload.grantId), text(payload.uid), text(payload.accountId), text(payload.clientId), expiresIn],
    );
    if (Date.now() - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = Date.now();
      await this.db.query(`DELETE FROM "identity"."oauth_record" WHERE "expires_at" < now() - interval '1 day'`);
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
    const rows = (await this.db.query(
      `SELECT "payload", extract(epoch FROM "consumed_at")::bigint AS "consumed" FROM "identity"."oauth_record"
       WHERE ${where} AND ("expires_at" IS NULL OR "expires_at" > now()) LIMIT 1`,
      params,
    )) as Array<{ payload: Record<string, unknown>; consumed: string | null }>;
    const row = rows[0];
    if (!row) return null;
    return row.consumed === null ? row.payload : { ...row.payload, consumed: Number(row.consumed) };
  }

  async consume(model: OAuthModel, id: string): Promise<void> {
    await this.db.query(`UPDATE "identity"."oauth_record" SET "consumed_at" = now() WHERE "model" = $1 AND "id" = $2`, [model, id]);
  }

  async destroy(model: OAuthModel, id: string): Promise<void> {
    await this.db.query(`DELETE FROM "identity"."oauth_record" WHERE "model" = $1 AND "id" = $2`, [model, id]);
  }

  /** Every code and token of a grant (and the grant itself) goes. */
  async revokeGrant(grantId: string): Promise<void> {
    await this.db.query(`DELETE FROM "identity"."oauth_record" WHERE "grant_id" = $1 OR ("model" = 'Grant' AND "id" = $1)`, [grantId]);
  }

  async insertApp(app: Omit<OAuthAppRow, 'created'>, maxPerUser: number): Promise<OAuthAppRow | undefined> {
    return this.db.transaction(async (tx) => {
      // One registration at a time per account, so a burst cannot pass the limit.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('oauth_app:' || $1))`, [app.userId]);
      const counted = (await tx.query(`SELECT count(*)::int AS "count" FROM "identity"."oauth_app" WHERE "user_id" = $1`, [
        app.userId,
      ])) as Array<{ count: number }>;
      if ((counted[0]?.count ?? 0) >= maxPerUser) return undefined;
      const rows = (await tx.query(
        `INSERT INTO "identity"."oauth_app" ("id", "user_id", "name", "redirect_uris", "scopes", "auth_method", "secret_hash")
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [app.id, app.userId, app.name, app.redirectUris, app.scopes, app.authMethod, app.secretHash],
      )) as Array<Record<string, unknown>>;
      return toApp(rows[0]!);
    });
  }

  async app(id: string): Promise<OAuthAppRow | undefined> {
    const rows = (await this.db.query(`SELECT * FROM "identity"."oauth_app" WHERE "id" = $1`, [id])) as Array<Record<string, unknown>>;
    return rows[0] ? toApp(rows[0]) : undefined;
  }

  async apps(userId: string): Promise<OAuthAppRow[]> {
    const rows = (await this.db.query(`SELECT * FROM "identity"."oauth_app" WHERE "user_id" = $1 ORDER BY "created" DESC, "id"`, [
      userId,
    ])) as Array<Record<string, unknown>>;
    return rows.map(toApp);
  }

  /** Replaces the secret of the user's confidential app; undefined when it is not theirs or has no secret. */
  async replaceSecret(userId: string, appId: string, secretHash: string): Promise<OAuthAppRow | undefined> {
    const row = await updateReturning<Record<string, unknown>>(
      this.db.manager,
      `UPDATE "identity"."oauth_app" SET "secret_hash" = $3 WHERE "id" = $1 AND "user_id" = $2 AND "secret_hash" IS NOT NULL RETURNING *`,
      [appId, userId, secretHash],
    );
    return row ? toApp(row) : undefined;
  }

  /**
   * Deletes the user's app with every record of it (its grants, codes and tokens); the ids of the
   * grants that ended, or undefined when the app is not theirs.
   */
  async deleteApp(userId: string, appId: string): Promise<string[] | undefined> {
    return this.db.transaction(async (tx) => {
      const deleted = await updateReturning<{ id: string }>(
        tx,
        `DELETE FROM "identity"."oauth_app" WHERE "id" = $1 AND "user_id" = $2 RETURNING "id"`,
        [appId, userId],
      );
      if (!deleted) return undefined;
      const grants = (await tx.query(`SELECT "id" FROM "identity"."oauth_record" WHERE "model" = 'Grant' AND "client_id" = $1`, [
        appId,
      ])) as Array<{ id: string }>;
      await tx.query(`DELETE FROM "identity"."oauth_record" WHERE "client_id" = $1`, [appId]);
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
      const grants = (await tx.query(
        `SELECT g."id" FROM "identity"."oauth_record" g
         WHERE g."model" = 'Grant' AND g."account_id" = $1 AND g."client_id" IN (
           SELECT c."client_id" FROM "identity"."oauth_record" c
           WHERE c."model" = 'Grant' AND c."account_id" = $1 AND (c."client_id" = $2 OR c."id" = $2))
         FOR UPDATE`,
        [userId, id],
      )) as Array<{ id: string }>;
      const ids = grants.map((g) => g.id);
      if (ids.length > 0) {
        await tx.query(
          `DELETE FROM "identity"."oauth_record" WHERE "grant_id" = ANY($1::text[]) OR ("model" = 'Grant' AND "id" = ANY($1::text[]))`,
          [ids],
        );
      }
      return ids;
    });
  }

  /** The live grants a user gave, with their app's name. */
  async liveGrants(accountId: string): Promise<GrantRow[]> {
    const rows = (await this.db.query(
      `SELECT r."id", r."client_id", r."payload", a."name" AS "app_name", a."created" AS "app_created"
       FROM "identity"."oauth_record" r JOIN "identity"."oauth_app" a ON a."id"::text = r."client_id"
       WHERE r."model" = 'Grant' AND r."account_id" = $1 AND (r."expires_at" IS NULL OR r."expires_at" > now())
       ORDER BY (r."payload"->>'iat')::bigint DESC, r."id"`,
      [accountId],
    )) as Array<{ id: string; client_id: string; payload: Record<string, unknown>; app_name: string }>;
    return rows.map((r) => ({
      id: r.id,
      clientId: r.client_id,
      appName: r.app_name,
      payload: r.payload,
      created: new Date(Number(r.payload.iat ?? 0) * 1000),
    }));
  }
}
