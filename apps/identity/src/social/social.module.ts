import { Module, type DynamicModule } from '@nestjs/common';
import { PUBLIC_URL } from '../accounts/accounts.service.js';
import type { OidcProviderConfig } from '../config.js';
import { OidcLoginsRepository } from './oidc-logins.repository.js';
import { SocialController } from './social.controller.js';
import { OIDC_PROVIDER_CONFIGS, OIDC_TIMEOUT_MS, SocialService } from './social.service.js';

export interface SocialModuleDeps {
  /** The registered AccountsModule (the same object the app imports, so there is one AccountsService). */
  accounts: DynamicModule;
  providers: OidcProviderConfig[];
  timeoutMs: number;
  publicUrl: string;
}

/** Social sign-in: NATS handlers, the rules and the repository of pending sign-ins; accounts come from AccountsModule. */
@Module({})
export class SocialModule {
  static register(deps: SocialModuleDeps): DynamicModule {
    return {
      module: SocialModule,
      imports: [deps.accounts],
      controllers: [SocialController],
      providers: [
        OidcLoginsRepository,
        SocialService,
        { provide: OIDC_PROVIDER_CONFIGS, useValue: deps.providers },
        { provide: OIDC_TIMEOUT_MS, useValue: deps.timeoutMs },
        { provide: PUBLIC_URL, useValue: deps.publicUrl },
      ],
    };
  }
}
