import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { RpcClient } from '@tinkerdesk/nest-common';

/** The one NATS connection of the gateway, shared by every controller. */
@Global()
@Module({})
export class RpcModule implements OnApplicationShutdown {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  static withClient(client: RpcClient) {
    return { module: RpcModule, providers: [{ provide: RpcClient, useValue: client }], exports: [RpcClient] };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rpc.close();
  }
}
