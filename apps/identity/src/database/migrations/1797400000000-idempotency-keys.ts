import { createIdempotencyTable } from '@tinkerdesk/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency-Keys of identity's creates (sign-ups, OAuth apps, contact questions; libs/persistence/src/idempotency.ts), claimed in the transaction of what they create, kept 24 hours. */
export class IdempotencyKeys1797400000000 implements MigrationInterface {
  name = 'IdempotencyKeys1797400000000';

  async up(q: QueryRunner): Promise<void> {
    await createIdempotencyTable(q, 'identity');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "identity"."idempotency_key"`);
  }
}
