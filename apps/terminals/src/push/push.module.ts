import { Module, type DynamicModule } from '@nestjs/common';
import type { TerminalsConfig } from '../config.js';
import { PushSender } from './push-sender.js';

/** Web Push (VAPID, encryption, the endpoint checks): its service is the sender. */
@Module({})
export class PushModule {
  static register(config: TerminalsConfig): DynamicModule {
    const allowedHosts = new Set(
      config.PUSH_ALLOWED_HOSTS.split(/[\s,]+/)
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    );
    return {
      module: PushModule,
      providers: [
        {
          provide: PushSender,
          useValue: new PushSender({
            publicKey: config.VAPID_PUBLIC_KEY,
            privateKey: config.VAPID_PRIVATE_KEY,
            subject: config.VAPID_SUBJECT,
            ttlSeconds: config.PUSH_TTL_SECONDS,
            timeoutMs: config.PUSH_TIMEOUT_MS,
            allowedHosts,
          }),
        },
      ],
      exports: [PushSender],
    };
  }
}
