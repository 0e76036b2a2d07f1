import type { Provider } from '@nestjs/common';
import { CONVERSION_BUCKET } from '@tinkerdesk/contracts';
import { openFileStore, RpcClient } from '@tinkerdesk/nest-common';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';

export const FILE_STORE = Symbol('FILE_STORE');

export const fileStoreProvider: Provider = {
  provide: FILE_STORE,
  inject: [RpcClient, GATEWAY_CONFIG],
  useFactory: (rpc: RpcClient, config: GatewayConfig) => openFileStore(rpc.connection, CONVERSION_BUCKET, config.NATS_PREFIX, config),
};
