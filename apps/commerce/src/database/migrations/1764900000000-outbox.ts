import { createOutboxTables, dropOutboxTables } from '@tinkerdesk/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transactional outbox: `outbox_event` holds what happened (written in the transaction of the
 * change, published to JetStream after commit, then marked), `processed_event` what each listener
 * has handled (written in the listener's own transaction, so each event is handled once).
 */
export class Outbox1764900000000 implements MigrationInterface {
  name = 'Outbox1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTables(q, 'commerce');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTables(q, 'commerce');
  }
}
