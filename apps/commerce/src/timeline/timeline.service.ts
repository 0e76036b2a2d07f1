import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, type TimelineEvent, type TimelineKind, type TimelinePage } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import type { TransactionManager } from '@tinkerdesk/persistence';
import { COMMERCE_LOGGER } from '../logger.token.js';
import { TimelineRepository } from './timeline.repository.js';

/** One line of someone's timeline. */
export interface TimelineEntry {
  userId: string | null;
  kind: TimelineKind;
  title: string;
  amount?: number | null;
  orderId?: string | null;
  requestId?: string | null;
  planId?: string | null;
}

/**
 * Every event of an account, recorded by commerce as it happens (orders placed and paid, receipts,
 * replies, requests sent, received, accepted and declined, plans and their charges, saved cards):
 * written only by the outbox's timeline listener, from the domain events, once per event.
 */
@Injectable()
export class TimelineService {
  constructor(
    @Inject(TimelineRepository) private readonly timeline: TimelineRepository,
    @Inject(COMMERCE_LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * The timeline listener's write: the entries of one domain event, in the listener's transaction
   * (with its processed-event row, so once per event). A failure throws: the event is redelivered.
   */
  async write(manager: TransactionManager | null, entries: TimelineEntry[]): Promise<void> {
    await this.timeline.insert(toRows(entries), manager);
  }

  async page(userId: string, offset = 0, limit = 20): Promise<TimelinePage> {
    const { events, total } = await this.timeline.page(userId, offset, limit);
    return { events, total, offset, limit };
  }

  async get(userId: string, id: string): Promise<TimelineEvent> {
    const event = await this.timeline.find(userId, id);
    if (!event) throw new AppError('NOT_FOUND', 'no such timeline event');
    return event;
  }
}

function toRows(entries: TimelineEntry[]) {
  return entries
    .filter((e): e is TimelineEntry & { userId: string } => e.userId !== null)
    .map((e) => ({
      id: randomUUID(),
      userId: e.userId,
      kind: e.kind,
      title: e.title,
      amount: e.amount ?? null,
      orderId: e.orderId ?? null,
      requestId: e.requestId ?? null,
      planId: e.planId ?? null,
    }));
}
