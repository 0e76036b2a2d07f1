import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { ContactDto, SUBJECTS } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MAILER } from '../accounts/accounts.service.js';
import { IDENTITY_LOGGER } from '../logger.token.js';
import { Mailer } from '../mail/mailer.js';
import { ContactMessageEntity } from './contact-message.entity.js';

export const SUPPORT_ADDRESS = Symbol('SUPPORT_ADDRESS');

/**
 * Contact questions are stored first (so none is lost), then emailed to the support address with
 * the sender as Reply-To. A mail failure is logged; the stored question is still acknowledged.
 */
@Controller()
export class ContactController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(SUPPORT_ADDRESS) private readonly support: string,
    @Inject(IDENTITY_LOGGER) private readonly logger: Logger,
  ) {}

  @MessagePattern(SUBJECTS.identity.contactCreate)
  async create(@Payload() input: ContactDto): Promise<{ success: true; id: string }> {
    const repo = this.dataSource.getRepository(ContactMessageEntity);
    const saved = await repo.save(
      repo.create({ id: randomUUID(), name: input.name.trim(), email: input.email.trim(), question: input.question.trim() }),
    );
    try {
      await this.mailer.send({
        to: this.support,
        replyTo: saved.email,
        subject: `Contact: question from ${saved.name}`,
        text: `From: ${saved.name} <${saved.email}>\nReference: ${saved.id}\n\n${saved.question}\n`,
      });
    } catch (error) {
      this.logger.error({ err: error, contactId: saved.id }, 'could not email a contact question; it is stored');
    }
    return { success: true, id: saved.id };
  }
}
