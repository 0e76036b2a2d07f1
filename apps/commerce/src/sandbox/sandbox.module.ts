import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module.js';
import { SandboxProviderModule } from './sandbox-provider.module.js';
import { SandboxController } from './sandbox.controller.js';
import { SandboxService } from './sandbox.service.js';

/** The sandbox's own pay and card pages (`sandbox_session`, `sandbox_card`, `sandbox_charge`): exports SandboxService. */
@Module({
  imports: [SandboxProviderModule, OrdersModule],
  controllers: [SandboxController],
  providers: [SandboxService],
  exports: [SandboxService],
})
export class SandboxModule {}
