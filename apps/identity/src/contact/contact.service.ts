import { Inject, Injectable } from '@nestjs/common';
import type { ContactMessage } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import { createUnderKey } from '@tinkerdesk/persistence';
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

  /** Under an Idempotency-Key once: a retry answers the stored question and queues no second email. */
  async create(input: ContactMessage): Promise<{ success: true; id: string }> {
    const id = randomUUID();
    const saved = await this.messages.insert(
      { id, name: input.name.trim(), email: input.email.trim(), question: input.question.trim() },
      createUnderKey('contact.create', 'visitor', input),
    );
    if (saved.id !== id) return { success: true, id: saved.id };
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
