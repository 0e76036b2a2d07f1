import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { TimelineEvent, TimelineKind } from '@tinkerdesk/contracts';
import type { DataSource, EntityManager } from 'typeorm';

export interface NewTimelineEvent {
  id: string;
  userId: string;
  kind: TimelineKind;
  title: string;
  amount: number | null;
  orderId: string | null;
  requestId: string | null;
  planId: string | null;
}

const toEvent = (r: Record<string, unknown>): TimelineEvent => ({
  id: r.id as string,
  kind: r.kind as TimelineKind,
  title: r.title as string,
  amount: (r.amount as number | null) ?? null,
  orderId: (r.order_id as string | null) ?? null,
  requestId: (r.request_id as string | null) ?? null,
  planId: (r.plan_id as string | null) ?? null,
  created: (r.created as Date).toISOString(),
});

/** The only place that touches the timeline. */
@Injectable()
export class TimelineRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Inserts entries through `manager` (a listener's transaction), or the pool when there is none. */
  async insert(events: NewTimelineEvent[], manager: EntityManager | null = null): Promise<void> {
    const runner = manager ?? this.db;
    for (const e of events) {
      await runner.query(
        `INSERT INTO "commerce"."timeline_event" ("id", "user_id", "kind", "title", "amount", "order_id", "request_id", "plan_id") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [e.id, e.userId, e.kind, e.title, e.amount, e.orderId, e.requestId, e.planId],
      );
    }
  }

  async page(userId: string, offset: number, limit: number): Promise<{ events: TimelineEvent[]; total: number }> {
    const [rows, counted] = await Promise.all([
      this.db.query(
        `SELECT * FROM "commerce"."timeline_event" WHERE "user_id" = $1 ORDER BY "created" DESC, "id" DESC LIMIT $2 OFFSET $3`,
        [userId, limit, offset],
      ) as Promise<Array<Record<string, unknown>>>,
      this.db.query(`SELECT count(*)::int AS n FROM "commerce"."timeline_event" WHERE "user_id" = $1`, [userId]) as Promise<
        Array<{ n: number }>
      >,
    ]);
    return { events: rows.map(toEvent), total: counted[0]?.n ?? 0 };
  }

  async find(userId: string, id: string): Promise<TimelineEvent | null> {
    const rows = (await this.db.query(`SELECT * FROM "commerce"."timeline_event" WHERE "id" = $1 AND "user_id" = $2`, [
      id,
      userId,
    ])) as Array<Record<string, unknown>>;
    return rows[0] ? toEvent(rows[0]) : null;
  }
}
