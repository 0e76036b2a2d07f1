import { createIdempotencyTable } from '@tinkerdesk/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency-Keys of creates too (orders, payment requests, plans; libs/persistence/src/idempotency.ts): the index the hourly sweep of keys older than 24 hours reads. */
export class IdempotencySweep1797300000000 implements MigrationInterface {
  name = 'IdempotencySweep1797300000000';

  async up(q: QueryRunner): Promise<void> {
    await createIdempotencyTable(q, 'commerce');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "commerce"."idempotency_key_created"`);
  }
}
