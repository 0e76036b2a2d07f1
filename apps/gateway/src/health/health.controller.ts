import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AppError,
  healthSubject,
  PLATFORM_VERSION,
  SERVICES,
  SUBJECTS,
  type EngineStatus,
  type HealthReport,
  type PublicHealthReport,
} from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { ApiAnswer, ApiErrors } from '../http/api-docs.js';
import type { Request } from 'express';
import { bearerToken } from '../auth/bearer.guard.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { Draining } from './draining.js';

const HEALTH_TIMEOUT_MS = 1000;
const startedAt = Date.now();

/** Equal in constant time (hashes first, so lengths leak nothing either). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

@ApiTags('health')
@Controller('v1/health')
export class HealthController {
  constructor(
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(Draining) private readonly draining: Draining,
  ) {}

  @Get()
  @ApiHeader({ name: 'authorization', required: false, description: 'Bearer <HEALTH_TOKEN> for the detail' })
  @ApiOperation({
    summary:
      'Status of the gateway and of each service: up or down for anyone; with the operator token (Authorization: Bearer ' +
      '<HEALTH_TOKEN>) the detail: instances, versions, uptimes, database and Redis latencies, errors. `engines.missing` names the ' +
      'conversion engines no live worker has (their conversions are off; the status is then degraded)',
  })
  @ApiAnswer(200, 'Health', 'The public status (no token) or the detail (operator token)')
  @ApiErrors('UNAUTHORIZED')
  async report(@Req() req: Request): Promise<HealthReport | PublicHealthReport> {
    const token = bearerToken(req);
    const operator = token !== undefined && this.config.HEALTH_TOKEN !== undefined && sameSecret(token, this.config.HEALTH_TOKEN);
    if (token !== undefined && !operator) {
      throw new AppError('UNAUTHORIZED', 'this token does not open the health detail; call without a token for the public status');
    }
    const detail = await this.detail();
    if (operator) return detail;
    return {
      status: detail.status,
      gateway: { status: detail.gateway.status },
      services: Object.fromEntries(Object.entries(detail.services).map(([name, s]) => [name, { status: s.status }])),
      ...(detail.engines ? { engines: { missing: detail.engines.missing } } : {}),
    };
  }

  /** The engines of the live conversion workers; undefined when the conversion service does not answer (it shows as down). */
  private engines(): Promise<EngineStatus | undefined> {
    return this.rpc.send(SUBJECTS.conversion.engines, {}, HEALTH_TIMEOUT_MS).catch(() => undefined);
  }

  private async detail(): Promise<HealthReport> {
    const engines = this.engines();
    const results = await Promise.all(
      SERVICES.map(async (service) => {
        try {
          return await this.rpc.send(healthSubject(service), {}, HEALTH_TIMEOUT_MS);
        } catch (error) {
          const detail = error instanceof AppError ? error.detail : error instanceof Error ? error.message : String(error);
          return { service, status: 'down' as const, detail };
        }
      }),
    );
    const services = Object.fromEntries(results.map((r) => [r.service, r]));
    const engineStatus = await engines;
    return {
      // A conversion engine no live worker has (LibreOffice not installed...) leaves the platform degraded.
      status: results.every((r) => r.status === 'up') && !engineStatus?.missing.length ? 'ok' : 'degraded',
      gateway: { status: 'up', version: PLATFORM_VERSION, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) },
      services,
      ...(engineStatus ? { engines: engineStatus } : {}),
    };
  }

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the gateway process answers' })
  @ApiAnswer(200, 'Probe')
  live(): { status: 'up' } {
    return { status: 'up' };
  }

  @Get('ready')
  @ApiOperation({
    summary:
      'Readiness: the gateway is connected to NATS now and is not stopping (503 while it is disconnected or reconnecting, and from the ' +
      'moment it begins to drain on SIGTERM)',
  })
  @ApiAnswer(200, 'Probe')
  ready(): { status: 'up' } {
    if (this.draining.active)
      throw new AppError('UNAVAILABLE', 'the gateway is stopping: it finishes the requests it holds and takes no new ones');
    if (!this.rpc.isConnected()) throw new AppError('UNAVAILABLE', 'the gateway is not connected to NATS');
    return { status: 'up' };
  }
}
