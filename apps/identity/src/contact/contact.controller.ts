import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { ContactDto, SUBJECTS } from '@tinkerdesk/contracts';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ContactMessageEntity } from './contact-message.entity.js';

/** Stores contact questions. (Emailing them to support arrives with the mail work of issue 3.) */
@Controller()
export class ContactController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @MessagePattern(SUBJECTS.identity.contactCreate)
  async create(@Payload() input: ContactDto): Promise<{ success: true; id: string }> {
    const repo = this.dataSource.getRepository(ContactMessageEntity);
    const saved = await repo.save(
      repo.create({ id: randomUUID(), name: input.name.trim(), email: input.email.trim(), question: input.question.trim() }),
    );
    return { success: true, id: saved.id };
  }
}
