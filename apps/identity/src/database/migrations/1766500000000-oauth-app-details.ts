import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Who made an OAuth app and its public links, for the consent page (oauth/oauth-app.entity.ts). */
export class OAuthAppDetails1766500000000 implements MigrationInterface {
  name = 'OAuthAppDetails1766500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "identity"."oauth_app"
      ADD COLUMN "developer_name" text,
      ADD COLUMN "developer_contact" text,
      ADD COLUMN "homepage_url" text,
      ADD COLUMN "privacy_url" text,
      ADD COLUMN "terms_url" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "identity"."oauth_app"
      DROP COLUMN "developer_name",
      DROP COLUMN "developer_contact",
      DROP COLUMN "homepage_url",
      DROP COLUMN "privacy_url",
      DROP COLUMN "terms_url"`);
  }
}
