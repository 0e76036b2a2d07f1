import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from '@tinkerdesk/nest-common';
import { randomUUID } from 'node:crypto';
import { IDENTITY_LOGGER } from '../logger.token.js';
import { MailQueue } from '../mail/mail-queue.js';
import type { MailMessage } from '../mail/mailer.js';
import { ContactRepository } from './contact.repository.js';

export const SUPPORT_ADDRESS = Symbol('SUPPORT_ADDRESS');

/**
 * Contact questions are stored first (so none is lost), then queued for email to the support address
 * with the sender as Reply-To. A queue failure is logged; the stored question is still acknowledged.
 */
@Injectable()
export class ContactService {
  constructor(
    @Inject(ContactRepository) private readonly messages: ContactRepository,
    @Inject(MailQueue) private readonly mail: MailQueue,
    @Inject(SUPPORT_ADDRESS) private readonly support: string,
    @Inject(IDENTITY_LOGGER) private readonly logger: Logger,
  ) {}

  async create(input: { name: string; email: string; question: string }): Promise<{ success: true; id: string }> {
    const saved = await this.messages.insert({
      id: randomUUID(),
      name: input.name.trim(),
      email: input.email.trim(),
      question: input.question.trim(),
    });
    await this.mail
      .enqueue({ kind: 'contact', contactId: saved.id })
      .catch((error: unknown) =>
        this.logger.error({ err: error, contactId: saved.id }, 'could not queue a contact question; it is stored'),
      );
    return { success: true, id: saved.id };
  }

  /** The mail worker's composer: the stored question, to support. */
  async mailFor(contactId: string): Promise<MailMessage | null> {
    const saved = await this.messages.findById(contactId);
    if (!saved) return null;
    return {
      to: this.support,
      replyTo: saved.email,
      subject: `Contact: question from ${saved.name}`,
      text: `From: ${saved.name} <${saved.email}>\nReference: ${saved.id}\n\n${saved.question}\n`,
    };
  }
}
