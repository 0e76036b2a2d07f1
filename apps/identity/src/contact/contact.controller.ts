import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Handles } from '@tinkerdesk/nest-common';
import { ContactMessage, SUBJECTS } from '@tinkerdesk/contracts';
import { ContactService } from './contact.service.js';

/** NATS handlers: translate only, the rules are in the service. */
@Controller()
export class ContactController {
  constructor(@Inject(ContactService) private readonly contact: ContactService) {}

  @Handles(SUBJECTS.identity.contactCreate)
  create(@Payload() input: ContactMessage): Promise<{ success: true; id: string }> {
    return this.contact.create(input);
  }
}
