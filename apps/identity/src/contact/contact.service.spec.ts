import { beforeEach, describe, expect, it } from '@jest/globals';
import type { Logger } from '@tinkerdesk/nest-common';
import type { MailJob, MailQueue } from '../mail/mail-queue.js';
import type { ContactMessageEntity } from './contact-message.entity.js';
import type { ContactRepository, NewContactMessage } from './contact.repository.js';
import { ContactService } from './contact.service.js';

/** The rules of ContactService with its repository and the mail queue faked. */

const SUPPORT = 'support@tinkerdesk.test';

class FakeMessages {
  rows = new Map<string, ContactMessageEntity>();
  failing = false;
  insert(message: NewContactMessage): Promise<ContactMessageEntity> {
    if (this.failing) return Promise.reject(new Error('database is down'));
    const row = { ...message, created: new Date() };
    this.rows.set(row.id, row);
    return Promise.resolve(row);
  }
  findById(id: string): Promise<ContactMessageEntity | null> {
    return Promise.resolve(this.rows.get(id) ?? null);
  }
}

class FakeMail {
  jobs: MailJob[] = [];
  failing = false;
  enqueue(job: MailJob): Promise<void> {
    if (this.failing) return Promise.reject(new Error('redis is down'));
    this.jobs.push(job);
    return Promise.resolve();
  }
}

class FakeLogger {
  errors: unknown[][] = [];
  error(...args: unknown[]): void {
    this.errors.push(args);
  }
}

let messages: FakeMessages;
let mail: FakeMail;
let logger: FakeLogger;
let service: ContactService;

beforeEach(() => {
  messages = new FakeMessages();
  mail = new FakeMail();
  logger = new FakeLogger();
  service = new ContactService(
    messages as unknown as ContactRepository,
    mail as unknown as MailQueue,
    SUPPORT,
    logger as unknown as Logger,
  );
});

const question = { name: '  Ada Lovelace ', email: ' ada@example.com  ', question: '\n  How do I export my notes?  \n' };

describe('mailFor', () => {
  it('composes nothing for a question that is not stored', async () => {
    expect(await service.mailFor('6f1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b40')).toBeNull();
  });

  it('sends the stored question to support, with the sender as Reply-To and the reference', async () => {
    const { id } = await service.create(question);
    expect(await service.mailFor(id)).toEqual({
      to: SUPPORT,
      replyTo: 'ada@example.com',
      subject: 'Contact: question from Ada Lovelace',
      text: `From: Ada Lovelace <ada@example.com>\nReference: ${id}\n\nHow do I export my notes?\n`,
    });
  });
});

describe('create', () => {
  it('queues nothing when the question could not be stored', async () => {
    messages.failing = true;
    await expect(service.create(question)).rejects.toThrow('database is down');
    expect(mail.jobs).toEqual([]);
  });

  it('stores the trimmed question first, then queues its email, and answers its id', async () => {
    const answer = await service.create(question);
    expect(answer).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(messages.rows.get(answer.id)).toMatchObject({
      id: answer.id,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      question: 'How do I export my notes?',
    });
    expect(mail.jobs).toEqual([{ kind: 'contact', contactId: answer.id }]);
  });

  it('acknowledges a stored question even when the mail queue is unreachable, and logs it', async () => {
    mail.failing = true;
    const answer = await service.create(question);
    expect(answer.success).toBe(true);
    expect(messages.rows.has(answer.id)).toBe(true);
    expect(logger.errors).toEqual([[expect.objectContaining({ contactId: answer.id }), expect.stringContaining('it is stored')]]);
  });

  it('gives every question its own id', async () => {
    const first = await service.create(question);
    const second = await service.create(question);
    expect(first.id).not.toBe(second.id);
    expect(messages.rows.size).toBe(2);
  });
});
