import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { QueryRunner } from 'typeorm';

/**
 * One row per running replica of a service, in that service's own schema, refreshed by its
 * heartbeat. The health check writes and reads it, which proves the service's database path.
 */
@Entity({ name: 'service_instance' })
export class ServiceInstanceEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  host!: string;

  @Column({ type: 'text' })
  version!: string;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'last_seen', type: 'timestamptz' })
  lastSeen!: Date;
}

/** The DDL of the table, for each service's first migration. */
export async function createServiceInstanceTable(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(`CREATE TABLE "${schema}"."service_instance" (
    "id" text PRIMARY KEY,
    "host" text NOT NULL,
    "version" text NOT NULL,
    "started_at" timestamptz NOT NULL,
    "last_seen" timestamptz NOT NULL
  )`);
  await queryRunner.query(`CREATE INDEX "service_instance_last_seen" ON "${schema}"."service_instance" ("last_seen")`);
}

export async function dropServiceInstanceTable(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(`DROP TABLE "${schema}"."service_instance"`);
}
