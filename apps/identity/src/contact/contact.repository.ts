import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { ContactMessageEntity } from './contact-message.entity.js';

export type NewContactMessage = Pick<ContactMessageEntity, 'id' | 'name' | 'email' | 'question'>;

/** The only place that touches TypeORM for contact questions. */
@Injectable()
export class ContactRepository {
  private readonly messages: Repository<ContactMessageEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.messages = dataSource.getRepository(ContactMessageEntity);
  }

  insert(message: NewContactMessage): Promise<ContactMessageEntity> {
    return this.messages.save(this.messages.create(message));
  }

  findById(id: string): Promise<ContactMessageEntity | null> {
    return this.messages.findOneBy({ id });
  }
}
