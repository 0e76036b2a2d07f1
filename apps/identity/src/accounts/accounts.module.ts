import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from '@tinkerdesk/nest-common';
import { IDENTITY_LOGGER } from '../logger.token.js';
import { AccountsController } from './accounts.controller.js';
import { AccountsRepository } from './accounts.repository.js';
import { AccountsService, PUBLIC_URL, SIGN_IN_LIMITER } from './accounts.service.js';
import { IDENTITY_EVENTS, type IdentityEvents } from './identity-events.js';
import type { SignInLimiter } from './sign-in-limiter.js';

export interface AccountsModuleDeps {
  /** MailQueueModule (the mail queue's producer), shared with the other modules that send mail. */
  mail: DynamicModule;
  limiter: SignInLimiter;
  events: IdentityEvents;
  publicUrl: string;
  logger: Logger;
}

/** Accounts: NATS handlers, the rules and the repository; the rules are exported for social sign-in and the mail composer. */
@Module({})
export class AccountsModule {
  static register(deps: AccountsModuleDeps): DynamicModule {
    return {
      module: AccountsModule,
      imports: [deps.mail],
      controllers: [AccountsController],
      providers: [
        AccountsRepository,
        AccountsService,
        { provide: SIGN_IN_LIMITER, useValue: deps.limiter },
        { provide: IDENTITY_EVENTS, useValue: deps.events },
        { provide: PUBLIC_URL, useValue: deps.publicUrl },
        { provide: IDENTITY_LOGGER, useValue: deps.logger },
      ],
      exports: [AccountsService],
    };
  }
}
