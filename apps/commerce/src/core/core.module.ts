import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { RpcClient, type Logger } from '@tinkerdesk/nest-common';
import type { CommerceConfig } from '../config.js';
import { COMMERCE_LOGGER } from '../logger.token.js';

/** The validated configuration (CommerceConfig), from which each module makes its own settings. */
export const COMMERCE_CONFIG = Symbol('COMMERCE_CONFIG');

/**
 * What every commerce module uses and no feature owns: the configuration, the logger and commerce's
 * own NATS connection (asking identity, and the outbox's stream), closed on shutdown. Global, so the
 * feature modules list only the features and infrastructure they depend on.
 */
@Global()
@Module({})
export class CommerceCoreModule implements OnApplicationShutdown {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  static register(config: CommerceConfig, logger: Logger): DynamicModule {
    return {
      module: CommerceCoreModule,
      providers: [
        { provide: COMMERCE_CONFIG, useValue: config },
        { provide: COMMERCE_LOGGER, useValue: logger },
        {
          provide: RpcClient,
          useFactory: () =>
            RpcClient.connect({
              natsUrl: config.NATS_URL,
              prefix: config.NATS_PREFIX,
              timeoutMs: 5000,
              name: `commerce-client-${process.pid}`,
            }),
        },
      ],
      exports: [COMMERCE_CONFIG, COMMERCE_LOGGER, RpcClient],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rpc.close();
  }
}
