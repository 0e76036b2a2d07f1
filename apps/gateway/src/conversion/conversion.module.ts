import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { ConversionController } from './conversion.controller.js';
import { fileStoreProvider } from './file-store.provider.js';

@Module({
  imports: [
    MulterModule.registerAsync({
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayConfig) => ({ limits: { fileSize: config.UPLOAD_LIMIT, files: 1, fields: 10, fieldSize: 64 * 1024 } }),
    }),
  ],
  controllers: [ConversionController],
  providers: [fileStoreProvider],
})
export class ConversionModule {}
