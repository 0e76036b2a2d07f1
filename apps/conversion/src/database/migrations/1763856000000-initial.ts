import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createServiceInstanceTable, dropServiceInstanceTable } from '@tinkerdesk/persistence';

export class Initial1763856000000 implements MigrationInterface {
  name = 'Initial1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createServiceInstanceTable(queryRunner, 'conversion');
    await queryRunner.query(`CREATE TABLE "conversion"."job" (
      "id" uuid PRIMARY KEY,
      "state" text NOT NULL CHECK ("state" IN ('queued', 'active', 'completed', 'failed')),
      "progress" smallint NOT NULL DEFAULT 0 CHECK ("progress" BETWEEN 0 AND 100),
      "filename" text NOT NULL,
      "media_type" text NOT NULL,
      "input_size" bigint NOT NULL,
      "target" text NOT NULL,
      "width" integer,
      "height" integer,
      "output_filename" text,
      "output_media_type" text,
      "output_size" bigint,
      "output_width" integer,
      "output_height" integer,
      "error" text,
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "job_created" ON "conversion"."job" ("created")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "conversion"."job"`);
    await dropServiceInstanceTable(queryRunner, 'conversion');
  }
}
