import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { TimelineEvent } from '@tinkerdesk/contracts';
import type { DataSource, EntityManager, Repository } from 'typeorm';
import { TimelineEventEntity } from './timeline-event.entity.js';

export type NewTimelineEvent = Omit<TimelineEventEntity, 'created'>;

const toEvent = ({ userId: _userId, created, ...rest }: TimelineEventEntity): TimelineEvent => ({
  ...rest,
  created: created.toISOString(),
});

/** The only place that touches the timeline. */
@Injectable()
export class TimelineRepository {
  private readonly events: Repository<TimelineEventEntity>;

  constructor(@InjectDataSource() db: DataSource) {
    this.events = db.getRepository(TimelineEventEntity);
  }

  /** Inserts entries through `manager` (a listener's transaction), or the pool when there is none. */
  async insert(events: NewTimelineEvent[], manager: EntityManager | null = null): Promise<void> {
    const repository = manager?.getRepository(TimelineEventEntity) ?? this.events;
    // One statement per entry, in order: each takes its own clock_timestamp(), so they sort in the order written.
    for (const e of events) {
      const { id, userId, kind, title, amount, orderId, requestId, planId } = e;
      await repository.insert({ id, userId, kind, title, amount, orderId, requestId, planId });
    }
  }

  async page(userId: string, offset: number, limit: number): Promise<{ events: TimelineEvent[]; total: number }> {
    const [rows, total] = await this.events.findAndCount({
      where: { userId },
      order: { created: 'DESC', id: 'DESC' },
      skip: offset,
      take: limit,
    });
    return { events: rows.map(toEvent), total };
  }

  async find(userId: string, id: string): Promise<TimelineEvent | null> {
    const row = await this.events.findOneBy({ id, userId });
    return row ? toEvent(row) : null;
  }
}
