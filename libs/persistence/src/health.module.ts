import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import {
  Controller,
  type DynamicModule,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import type { DependencyHealth, ServiceHealth, ServiceName } from '@tinkerdesk/contracts';
import { healthSubject } from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { DataSource } from 'typeorm';
import { ServiceInstanceEntity } from './service-instance.entity.js';

export const HEALTH_OPTIONS = Symbol('HEALTH_OPTIONS');
export const EXTRA_HEALTH_CHECKS = Symbol('EXTRA_HEALTH_CHECKS');

export type HealthCheck = () => Promise<void>;

export interface HealthOptions {
  service: ServiceName;
  version: string;
  heartbeatMs?: number;
}

const HEARTBEAT_MS = 10_000;

async function timed(check: HealthCheck): Promise<DependencyHealth> {
  const start = performance.now();
  try {
    await check();
    return { status: 'up', latencyMs: Math.round((performance.now() - start) * 10) / 10 };
  } catch (error) {
    return { status: 'down', detail: error instanceof Error ? error.message : String(error) };
  }
}

@Injectable()
export class HealthService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly instanceId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly startedAt = new Date();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(HEALTH_OPTIONS) private readonly options: HealthOptions,
    @Inject(EXTRA_HEALTH_CHECKS) private readonly extraChecks: Record<string, HealthCheck>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.beat().catch(() => undefined);
    this.timer = setInterval(() => void this.beat().catch(() => undefined), this.options.heartbeatMs ?? HEARTBEAT_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.dataSource.isInitialized) {
      await this.dataSource
        .getRepository(ServiceInstanceEntity)
        .delete({ id: this.instanceId })
        .catch(() => undefined);
    }
  }

  /** Upserts this replica's row (a write to the service's own schema). */
  private async beat(): Promise<void> {
    await this.dataSource
      .getRepository(ServiceInstanceEntity)
      .upsert({ id: this.instanceId, host: hostname(), version: this.options.version, startedAt: this.startedAt, lastSeen: new Date() }, [
        'id',
      ]);
  }

  /** Replicas seen in the last three heartbeats (a read of the service's own schema). */
  private async liveInstances(): Promise<number> {
    const since = new Date(Date.now() - 3 * (this.options.heartbeatMs ?? HEARTBEAT_MS));
    return this.dataSource
      .getRepository(ServiceInstanceEntity)
      .createQueryBuilder('i')
      .where('i.last_seen >= :since', { since })
      .getCount();
  }

  async check(): Promise<ServiceHealth> {
    let instances: number | undefined;
    const database = await timed(async () => {
      await this.beat();
      instances = await this.liveInstances();
    });
    const dependencies: Record<string, DependencyHealth> = { database };
    for (const [name, check] of Object.entries(this.extraChecks)) dependencies[name] = await timed(check);
    const up = Object.values(dependencies).every((d) => d.status === 'up');
    return {
      service: this.options.service,
      status: up ? 'up' : 'down',
      instance: this.instanceId,
      version: this.options.version,
      uptimeSeconds: Math.round((Date.now() - this.startedAt.getTime()) / 1000),
      ...(instances !== undefined ? { instances } : {}),
      dependencies,
    };
  }

  async ready(): Promise<boolean> {
    return (await this.check()).status === 'up';
  }
}

/**
 * The health subject of a service (`<service>.health.check`), answered with its database status
 * and any extra dependency checks (Redis for conversion).
 */
export class ServiceHealthModule {
  static forService(options: HealthOptions, extraChecks: Record<string, HealthCheck> = {}): DynamicModule {
    @Controller()
    class HealthController {
      constructor(private readonly health: HealthService) {}

      @Handles(healthSubject(options.service))
      check(): Promise<ServiceHealth> {
        return this.health.check();
      }
    }
    return {
      module: ServiceHealthModule,
      imports: [TypeOrmModule.forFeature([ServiceInstanceEntity])],
      controllers: [HealthController],
      providers: [HealthService, { provide: HEALTH_OPTIONS, useValue: options }, { provide: EXTRA_HEALTH_CHECKS, useValue: extraChecks }],
      exports: [HealthService],
    };
  }
}
