import { createOutboxTables, dropOutboxTables } from '@tinkerdesk/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transactional outbox of terminals (libs/persistence/src/outbox): `outbox_event` holds what
 * happened (a share created, written in the transaction that inserts it), `processed_event` what each
 * listener has handled (the push listener queues each share's delivery once).
 */
export class Outbox1765700000000 implements MigrationInterface {
  name = 'Outbox1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTables(q, 'terminals');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTables(q, 'terminals');
  }
}
