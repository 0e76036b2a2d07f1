import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { RpcClient } from '@tinkerdesk/nest-common';
import { SessionCache } from './auth/session-cache.js';
import { ProfileCache } from './users/profile-cache.js';

/** The one NATS connection of the gateway, shared by every controller, and the session checks and profiles it keeps. */
@Global()
@Module({})
export class RpcModule implements OnApplicationShutdown {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  static withClient(client: RpcClient, sessions: SessionCache, profiles: ProfileCache) {
    return {
      module: RpcModule,
      providers: [
        { provide: RpcClient, useValue: client },
        { provide: SessionCache, useValue: sessions },
        { provide: ProfileCache, useValue: profiles },
      ],
      exports: [RpcClient, SessionCache, ProfileCache],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rpc.close();
  }
}
