import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { storedId, type IdempotentCreate } from '@tinkerdesk/persistence';
import { DataSource, type Repository } from 'typeorm';
import { IDENTITY_KEYS } from '../database/idempotency-keys.js';
import { ContactMessageEntity } from './contact-message.entity.js';

export type NewContactMessage = Pick<ContactMessageEntity, 'id' | 'name' | 'email' | 'question'>;

/** The only place that touches TypeORM for contact questions. */
@Injectable()
export class ContactRepository {
  private readonly messages: Repository<ContactMessageEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.messages = dataSource.getRepository(ContactMessageEntity);
  }

  /**
   * Stores a question; under an Idempotency-Key once (the key claimed in the insert's transaction): the same
   * request again, or alongside, answers the first question (another id than `message`'s: not to be mailed again).
   */
  async insert(message: NewContactMessage, idempotent?: IdempotentCreate): Promise<ContactMessageEntity> {
    if (idempotent === undefined) return this.messages.save(this.messages.create(message));
    const { answer } = await this.dataSource.transaction((m) =>
      IDENTITY_KEYS.once(m, idempotent, async () => {
        await m.getRepository(ContactMessageEntity).save(this.messages.create(message));
        return { id: message.id };
      }),
    );
    return this.messages.findOneByOrFail({ id: storedId(answer) ?? message.id });
  }

  findById(id: string): Promise<ContactMessageEntity | null> {
    return this.messages.findOneBy({ id });
  }
}
