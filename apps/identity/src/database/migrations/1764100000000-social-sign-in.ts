import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SocialSignIn1764100000000 implements MigrationInterface {
  name = 'SocialSignIn1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // A social account is found again by its provider's subject, whatever its email becomes.
    await queryRunner.query(`ALTER TABLE "identity"."user" ADD COLUMN "provider_subject" text`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "user_provider_subject" ON "identity"."user" ("provider", "provider_subject") WHERE "provider_subject" IS NOT NULL`,
    );
    // A sign-in started with a provider and not finished yet: single use, ten minutes. Only the
    // SHA-256 of the state is kept; the PKCE verifier and the nonce are needed as they are.
    await queryRunner.query(`CREATE TABLE "identity"."oidc_login" (
      "id" uuid PRIMARY KEY,
      "provider" text NOT NULL,
      "state_hash" text NOT NULL UNIQUE,
      "code_verifier" text NOT NULL,
      "nonce" text NOT NULL,
      "return_to" text,
      "expires_at" timestamptz NOT NULL,
      "used_at" timestamptz,
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "oidc_login_expires" ON "identity"."oidc_login" ("expires_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "identity"."oidc_login"`);
    await queryRunner.query(`DROP INDEX "identity"."user_provider_subject"`);
    await queryRunner.query(`ALTER TABLE "identity"."user" DROP COLUMN "provider_subject"`);
  }
}
