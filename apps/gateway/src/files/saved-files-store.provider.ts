import type { Provider } from '@nestjs/common';
import { openSavedFilesStore, RpcClient, type ObjectStore } from '@tinkerdesk/nest-common';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';

export const SAVED_FILES_STORE = Symbol('SAVED_FILES_STORE');

/** The site's own storage of saved files (a JetStream object store), opened on first use. */
export const savedFilesStoreProvider: Provider = {
  provide: SAVED_FILES_STORE,
  inject: [RpcClient, GATEWAY_CONFIG],
  useFactory: (rpc: RpcClient, config: GatewayConfig) => {
    let store: Promise<ObjectStore> | undefined;
    return () => (store ??= openSavedFilesStore(rpc.connection, config.NATS_PREFIX, config.FILES_STORE_MAX_BYTES));
  },
};
