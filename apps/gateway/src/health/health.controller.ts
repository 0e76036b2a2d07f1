import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppError, healthSubject, PLATFORM_VERSION, SERVICES, type HealthReport, type ServiceHealth } from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';

const HEALTH_TIMEOUT_MS = 1000;
const startedAt = Date.now();

@ApiTags('health')
@Controller('v1/health')
export class HealthController {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({ summary: 'Status of the gateway and of each service (database, and Redis for conversion)' })
  async report(): Promise<HealthReport> {
    const results = await Promise.all(
      SERVICES.map(async (service) => {
        try {
          return await this.rpc.send<ServiceHealth>(healthSubject(service), {}, HEALTH_TIMEOUT_MS);
        } catch (error) {
          const detail = error instanceof AppError ? error.detail : error instanceof Error ? error.message : String(error);
          return { service, status: 'down' as const, detail };
        }
      }),
    );
    const services = Object.fromEntries(results.map((r) => [r.service, r]));
    return {
      status: results.every((r) => r.status === 'up') ? 'ok' : 'degraded',
      gateway: { status: 'up', version: PLATFORM_VERSION, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) },
      services,
    };
  }

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the gateway process answers' })
  live(): { status: 'up' } {
    return { status: 'up' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the gateway is connected to NATS' })
  ready(): { status: 'up' } {
    if (!this.rpc.isConnected()) throw new AppError('UNAVAILABLE', 'the gateway is not connected to NATS');
    return { status: 'up' };
  }
}
