import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OAuth 2 for integrators: the apps users register (oidc-provider's clients; only the SHA-256 of a
 * client secret is kept) and oidc-provider's records (sessions, interactions, grants, codes, tokens),
 * one row per record, with the columns its adapter looks them up by.
 */
export class OAuth1764900000000 implements MigrationInterface {
  name = 'OAuth1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "identity"."oauth_app" (
      "id" uuid PRIMARY KEY,
      "user_id" uuid NOT NULL REFERENCES "identity"."user" ("id") ON DELETE CASCADE,
      "name" text NOT NULL,
      "redirect_uris" text[] NOT NULL,
      "scopes" text[] NOT NULL,
      "auth_method" text NOT NULL CHECK ("auth_method" IN ('client_secret_basic', 'client_secret_post', 'none')),
      "secret_hash" text,
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX "oauth_app_user_idx" ON "identity"."oauth_app" ("user_id", "created")`);
    await q.query(`CREATE TABLE "identity"."oauth_record" (
      "model" text NOT NULL,
      "id" text NOT NULL,
      "payload" jsonb NOT NULL,
      "grant_id" text,
      "uid" text,
      "account_id" text,
      "client_id" text,
      "expires_at" timestamptz,
      "consumed_at" timestamptz,
      PRIMARY KEY ("model", "id")
    )`);
    await q.query(`CREATE INDEX "oauth_record_grant_idx" ON "identity"."oauth_record" ("grant_id") WHERE "grant_id" IS NOT NULL`);
    await q.query(`CREATE INDEX "oauth_record_uid_idx" ON "identity"."oauth_record" ("uid") WHERE "uid" IS NOT NULL`);
    await q.query(
      `CREATE INDEX "oauth_record_account_idx" ON "identity"."oauth_record" ("account_id", "client_id") WHERE "model" = 'Grant'`,
    );
    await q.query(`CREATE INDEX "oauth_record_expires_idx" ON "identity"."oauth_record" ("expires_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "identity"."oauth_record"`);
    await q.query(`DROP TABLE "identity"."oauth_app"`);
  }
}
