import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createServiceInstanceTable, dropServiceInstanceTable } from '@tinkerdesk/persistence';

export class Initial1763856000000 implements MigrationInterface {
  name = 'Initial1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createServiceInstanceTable(queryRunner, 'terminals');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropServiceInstanceTable(queryRunner, 'terminals');
  }
}
