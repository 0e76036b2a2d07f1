import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from '@tinkerdesk/nest-common';
import { IDENTITY_LOGGER } from '../logger.token.js';
import { ContactController } from './contact.controller.js';
import { ContactRepository } from './contact.repository.js';
import { ContactService, SUPPORT_ADDRESS } from './contact.service.js';

export interface ContactModuleDeps {
  /** MailQueueModule (the mail queue's producer), shared with the other modules that send mail. */
  mail: DynamicModule;
  supportAddress: string;
  logger: Logger;
}

/** Contact questions: NATS handler, the rules and the repository; the rules are exported for the mail composer. */
@Module({})
export class ContactModule {
  static register(deps: ContactModuleDeps): DynamicModule {
    return {
      module: ContactModule,
      imports: [deps.mail],
      controllers: [ContactController],
      providers: [
        ContactRepository,
        ContactService,
        { provide: SUPPORT_ADDRESS, useValue: deps.supportAddress },
        { provide: IDENTITY_LOGGER, useValue: deps.logger },
      ],
      exports: [ContactService],
    };
  }
}
