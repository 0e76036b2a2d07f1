import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { createLogger, RpcClient, type ConversionFiles } from '@tinkerdesk/nest-common';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { uploadOptions } from '../http/uploads.js';
import { CONVERSION_LOGGER, ConversionController } from './conversion.controller.js';
import { ConversionFilesRedis, FILE_STORE, fileStoreProvider } from './file-store.provider.js';
import { JobWaiter } from './job-waiter.js';
import { ObjectStoreStorage } from './object-store-storage.js';

@Module({ providers: [ConversionFilesRedis, fileStoreProvider], exports: [FILE_STORE] })
class FileStoreModule {}

@Module({
  imports: [
    MulterModule.registerAsync({
      imports: [FileStoreModule],
      inject: [GATEWAY_CONFIG, FILE_STORE],
      // Uploads stream into the conversion files (ObjectStoreStorage): a large one never sits in the gateway's memory.
      useFactory: (config: GatewayConfig, store: ConversionFiles) => ({
        ...uploadOptions(config.UPLOAD_LIMIT),
        storage: new ObjectStoreStorage(() => store),
      }),
    }),
    FileStoreModule,
  ],
  controllers: [ConversionController],
  providers: [
    {
      provide: CONVERSION_LOGGER,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayConfig) => createLogger('gateway', config.LOG_LEVEL),
    },
    {
      provide: JobWaiter,
      inject: [RpcClient, GATEWAY_CONFIG],
      useFactory: (rpc: RpcClient, config: GatewayConfig) => {
        const waiter = new JobWaiter();
        waiter.listen(rpc.connection, config.NATS_PREFIX);
        return waiter;
      },
    },
  ],
})
export class ConversionModule {}
