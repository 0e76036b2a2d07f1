import { Module } from '@nestjs/common';
import type { CommerceConfig } from '../config.js';
import { COMMERCE_CONFIG } from '../core/core.module.js';
import { SANDBOX_SETTINGS, SandboxPaymentProvider, type SandboxSettings } from './sandbox.provider.js';
import { SandboxRepository } from './sandbox.repository.js';

/**
 * The sandbox as a payment provider (its sessions and test cards): used by PaymentsModule, and by
 * SandboxModule for the sandbox's own pay and card pages.
 */
@Module({
  providers: [
    SandboxRepository,
    SandboxPaymentProvider,
    {
      provide: SANDBOX_SETTINGS,
      useFactory: (config: CommerceConfig): SandboxSettings => ({
        publicUrl: config.PUBLIC_URL,
        sessionMinutes: config.SANDBOX_SESSION_MINUTES,
      }),
      inject: [COMMERCE_CONFIG],
    },
  ],
  exports: [SandboxPaymentProvider, SandboxRepository],
})
export class SandboxProviderModule {}
