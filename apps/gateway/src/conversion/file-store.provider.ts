import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { CONVERSION_BUCKET } from '@tinkerdesk/contracts';
import { createRedis, openConversionFiles, RpcClient, type ConversionFiles } from '@tinkerdesk/nest-common';
import type { Redis } from 'ioredis';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';

export const FILE_STORE = Symbol('FILE_STORE');

/** The Redis connection of the small conversion files (closed with the gateway). */
@Injectable()
export class ConversionFilesRedis implements OnApplicationShutdown {
  readonly redis: Redis;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.redis = createRedis(config.REDIS_URL, 'gateway-conversion-files');
    this.redis.on('error', () => undefined); // a failed upload or download answers for itself
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}

export const fileStoreProvider: Provider = {
  provide: FILE_STORE,
  inject: [RpcClient, ConversionFilesRedis, GATEWAY_CONFIG],
  useFactory: (rpc: RpcClient, redis: ConversionFilesRedis, config: GatewayConfig): Promise<ConversionFiles> =>
    openConversionFiles(rpc.connection, redis.redis, CONVERSION_BUCKET, config),
};
