import type { EngineStatus } from './conversion-engines.js';

export type ComponentStatus = 'up' | 'down';

export interface DependencyHealth {
  status: ComponentStatus;
  /** Round trip of the check in milliseconds. */
  latencyMs?: number;
  detail?: string;
}

/** What each service answers on its health subject. */
export interface ServiceHealth {
  service: string;
  status: ComponentStatus;
  instance: string;
  version: string;
  uptimeSeconds: number;
  /** Live instances of this service, from its own heartbeat table. */
  instances?: number;
  dependencies: Record<string, DependencyHealth>;
}

/** GET /v1/health for anyone: up or down, nothing that describes the deployment. */
export interface PublicHealthReport {
  status: 'ok' | 'degraded';
  gateway: { status: ComponentStatus };
  services: Record<string, { status: ComponentStatus }>;
  /** The conversion engines no live worker has, whose conversions are off (absent when the conversion service did not answer). */
  engines?: Pick<EngineStatus, 'missing'>;
}

/** GET /v1/health with the operator token (HEALTH_TOKEN): instances, versions, latencies, errors. */
export interface HealthReport {
  status: 'ok' | 'degraded';
  gateway: { status: ComponentStatus; version: string; uptimeSeconds: number };
  services: Record<string, ServiceHealth | { service: string; status: 'down'; detail: string }>;
  /** The conversion engines of the live workers: `missing` names those no live worker has (absent when the conversion service did not answer). */
  engines?: EngineStatus;
}
