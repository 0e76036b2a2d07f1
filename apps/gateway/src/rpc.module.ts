import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { RpcClient } from '@tinkerdesk/nest-common';
import { SessionCache } from './auth/session-cache.js';

/** The one NATS connection of the gateway, shared by every controller, and the session checks it keeps. */
@Global()
@Module({})
export class RpcModule implements OnApplicationShutdown {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  static withClient(client: RpcClient, sessions: SessionCache) {
    return {
      module: RpcModule,
      providers: [
        { provide: RpcClient, useValue: client },
        { provide: SessionCache, useValue: sessions },
      ],
      exports: [RpcClient, SessionCache],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rpc.close();
  }
}
