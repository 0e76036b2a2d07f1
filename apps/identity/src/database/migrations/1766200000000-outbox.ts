import { createOutboxTables, dropOutboxTables } from '@tinkerdesk/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transactional outbox of identity (libs/persistence/src/outbox): `outbox_event` holds what
 * happened (an address verified, written in the transaction that marks it verified) for other
 * services to hear after the commit; `processed_event` is there for identity's own listeners.
 */
export class Outbox1766200000000 implements MigrationInterface {
  name = 'Outbox1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTables(q, 'identity');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTables(q, 'identity');
  }
}
