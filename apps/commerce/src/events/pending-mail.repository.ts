import type { SendMailMessage } from '@tinkerdesk/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { TransactionManager } from '@tinkerdesk/persistence';
import type { DataSource, Repository } from 'typeorm';
import { PendingMailEntity } from './pending-mail.entity.js';

/** Keeps an event's secret email, through the transaction that records the event. */
export async function insertPendingMail(manager: TransactionManager, eventId: string, message: SendMailMessage): Promise<void> {
  await manager.getRepository(PendingMailEntity).insert({ eventId, message });
}

/** The only place that touches pending_mail: the mail listener reads an event's email, then deletes it once sent. */
@Injectable()
export class PendingMailRepository {
  private readonly mails: Repository<PendingMailEntity>;

  constructor(@InjectDataSource() db: DataSource) {
    this.mails = db.getRepository(PendingMailEntity);
  }

  async find(eventId: string): Promise<SendMailMessage | null> {
    return (await this.mails.findOneBy({ eventId }))?.message ?? null;
  }

  async delete(eventId: string): Promise<void> {
    await this.mails.delete({ eventId });
  }
}
