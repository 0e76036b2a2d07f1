import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { uploadOptions } from '../http/uploads.js';
import { ConversionController } from './conversion.controller.js';
import { fileStoreProvider } from './file-store.provider.js';

@Module({
  imports: [
    MulterModule.registerAsync({
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayConfig) => uploadOptions(config.UPLOAD_LIMIT),
    }),
  ],
  controllers: [ConversionController],
  providers: [fileStoreProvider],
})
export class ConversionModule {}
