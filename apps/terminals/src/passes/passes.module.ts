import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from '@tinkerdesk/nest-common';
import type { TerminalsConfig } from '../config.js';
import { IMAGE_SWEEP_SETTINGS, ImageSweep } from './image-sweep.js';
import { PassesController } from './passes.controller.js';
import { PassesRepository } from './passes.repository.js';
import { PASSES_PUBLIC_URL, PassesService } from './passes.service.js';
import { loadWalletCredentials, logWalletSetup } from './wallet-credentials.js';
import { Wallets, WALLETS } from './wallets.js';

/** Wallet passes (issue 19): designs, their images, Apple and Google Wallet. */
@Module({})
export class PassesModule {
  static register(config: TerminalsConfig, logger: Logger): DynamicModule {
    const credentials = loadWalletCredentials(config);
    logWalletSetup(credentials, logger);
    return {
      module: PassesModule,
      controllers: [PassesController],
      providers: [
        {
          provide: WALLETS,
          useValue: new Wallets({
            credentials,
            publicUrl: config.PUBLIC_URL,
            organizationName: config.APPLE_ORGANIZATION_NAME,
          }),
        },
        { provide: PASSES_PUBLIC_URL, useValue: config.PUBLIC_URL },
        { provide: IMAGE_SWEEP_SETTINGS, useValue: { intervalMs: config.PASS_IMAGE_SWEEP_SECONDS * 1000, graceSeconds: 3600 } },
        PassesRepository,
        PassesService,
        ImageSweep,
      ],
      exports: [PassesService],
    };
  }
}
