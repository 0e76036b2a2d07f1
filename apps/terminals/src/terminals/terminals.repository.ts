import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ShareContentType, ShareView, TerminalPlatform, TerminalView } from '@tinkerdesk/contracts';
import type { DataSource } from 'typeorm';

/** A stored Web Push subscription (PushSubscription.toJSON()). */
export interface StoredSubscription {
  endpoint: string;
  expirationTime: number | null;
  keys: { p256dh: string; auth: string };
}

export interface TerminalRow {
  id: string;
  userId: string;
  label: string;
  send: boolean;
  receive: boolean;
  active: boolean;
  details: Record<string, string>;
  platform: TerminalPlatform;
  capabilities: string[];
  remote: boolean;
  /** The app (and its OAuth grant) that registered it; null when the user did. */
  app: { grantId: string; id: string; name: string } | null;
  destination: string | null;
  subscription: StoredSubscription | null;
  inbox: number;
  created: Date;
  modified: Date;
}

export interface ShareRow {
  id: string;
  terminalId: string;
  userId: string;
  fromTerminalId: string | null;
  contentType: ShareContentType;
  content: string;
  description: string;
  push: ShareView['push'];
  pushError: string | null;
  created: Date;
}

const SELECT = `SELECT t.*, (SELECT count(*)::int FROM "terminals"."share" s WHERE s."terminal_id" = t."id") AS "inbox" FROM "terminals"."terminal" t`;

const toTerminal = (r: Record<string, unknown>): TerminalRow => ({
  id: r.id as string,
  userId: r.user_id as string,
  label: r.label as string,
  send: r.send as boolean,
  receive: r.receive as boolean,
  active: r.active as boolean,
  details: (r.details as Record<string, string>) ?? {},
  platform: r.platform as TerminalPlatform,
  capabilities: (r.capabilities as string[]) ?? [],
  remote: r.remote as boolean,
  app: r.grant_id ? { grantId: r.grant_id as string, id: r.app_id as string, name: r.app_name as string } : null,
  destination: (r.destination as string | null) ?? null,
  subscription: (r.subscription as StoredSubscription | null) ?? null,
  inbox: (r.inbox as number | undefined) ?? 0,
  created: r.created as Date,
  modified: r.modified as Date,
});

const toShare = (r: Record<string, unknown>): ShareRow => ({
  id: r.id as string,
  terminalId: r.terminal_id as string,
  userId: r.user_id as string,
  fromTerminalId: (r.from_terminal_id as string | null) ?? null,
  contentType: r.content_type as ShareContentType,
  content: r.content as string,
  description: r.description as string,
  push: r.push as ShareView['push'],
  pushError: (r.push_error as string | null) ?? null,
  created: r.created as Date,
});

export function terminalView(t: TerminalRow): TerminalView {
  return {
    id: t.id,
    label: t.label,
    send: t.send,
    receive: t.receive,
    active: t.active,
    details: t.details,
    platform: t.platform,
    capabilities: t.capabilities,
    remote: t.remote,
    destination: t.destination,
    subscribed: t.subscription !== null,
    inbox: t.inbox,
    app: t.app ? { id: t.app.id, name: t.app.name } : null,
    created: t.created.toISOString(),
    modified: t.modified.toISOString(),
  };
}

export function shareView(s: ShareRow): ShareView {
  return {
    id: s.id,
    terminalId: s.terminalId,
    fromTerminalId: s.fromTerminalId,
    contentType: s.contentType,
    content: s.content,
    description: s.description,
    push: s.push,
    created: s.created.toISOString(),
  };
}

/** The only place that touches terminals and shares. */
@Injectable()
export class TerminalsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(
    row: Omit<TerminalRow, 'destination' | 'subscription' | 'inbox' | 'created' | 'modified'>,
    tokenHash: string,
  ): Promise<TerminalRow> {
    await this.db.query(
      `INSERT INTO "terminals"."terminal" ("id", "user_id", "label", "send", "receive", "active", "details", "platform", "capabilities", "remote", "token_hash", "grant_id", "app_id", "app_name")
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9::text[], $10, $11, $12, $13, $14)`,
      [
        row.id,
        row.userId,
        row.label,
        row.send,
        row.receive,
        row.active,
        JSON.stringify(row.details),
        row.platform,
        row.capabilities,
        row.remote,
        tokenHash,
        row.app?.grantId ?? null,
        row.app?.id ?? null,
        row.app?.name ?? null,
      ],
    );
    return (await this.find(row.id, row.userId))!;
  }

  async count(userId: string): Promise<number> {
    const rows = (await this.db.query(`SELECT count(*)::int AS n FROM "terminals"."terminal" WHERE "user_id" = $1`, [userId])) as Array<{
      n: number;
    }>;
    return rows[0]?.n ?? 0;
  }

  async list(userId: string): Promise<TerminalRow[]> {
    const rows = (await this.db.query(`${SELECT} WHERE t."user_id" = $1 ORDER BY t."created", t."id"`, [userId])) as Array<
      Record<string, unknown>
    >;
    return rows.map(toTerminal);
  }

  /** A terminal of the user, or null (another user's answers null too). */
  async find(id: string, userId: string): Promise<TerminalRow | null> {
    const rows = (await this.db.query(`${SELECT} WHERE t."id" = $1 AND t."user_id" = $2`, [id, userId])) as Array<Record<string, unknown>>;
    return rows[0] ? toTerminal(rows[0]) : null;
  }

  async findByTokenHash(hash: string): Promise<TerminalRow | null> {
    const rows = (await this.db.query(`${SELECT} WHERE t."token_hash" = $1`, [hash])) as Array<Record<string, unknown>>;
    return rows[0] ? toTerminal(rows[0]) : null;
  }

  async update(
    id: string,
    userId: string,
    fields: Partial<Pick<TerminalRow, 'label' | 'send' | 'receive' | 'active' | 'destination'>>,
  ): Promise<TerminalRow | null> {
    const sets: string[] = [];
    const values: unknown[] = [id, userId];
    for (const [key, column] of [
      ['label', 'label'],
      ['send', 'send'],
      ['receive', 'receive'],
      ['active', 'active'],
      ['destination', 'destination'],
    ] as const) {
      if (fields[key] === undefined) continue;
      values.push(fields[key]);
      sets.push(`"${column}" = $${values.length}`);
    }
    if (sets.length > 0) {
      await this.db.query(
        `UPDATE "terminals"."terminal" SET ${sets.join(', ')}, "modified" = now() WHERE "id" = $1 AND "user_id" = $2`,
        values,
      );
    }
    return this.find(id, userId);
  }

  async setSubscription(id: string, userId: string, subscription: StoredSubscription | null): Promise<TerminalRow | null> {
    await this.db.query(
      `UPDATE "terminals"."terminal" SET "subscription" = $3::jsonb, "modified" = now() WHERE "id" = $1 AND "user_id" = $2`,
      [id, userId, subscription ? JSON.stringify(subscription) : null],
    );
    return this.find(id, userId);
  }

  /** Forgets a subscription the push service said is gone (404/410), only if it is still that one. */
  async dropSubscription(id: string, endpoint: string): Promise<boolean> {
    const [, count] = (await this.db.query(
      `UPDATE "terminals"."terminal" SET "subscription" = NULL, "modified" = now() WHERE "id" = $1 AND "subscription"->>'endpoint' = $2`,
      [id, endpoint],
    )) as [unknown, number];
    return count === 1;
  }

  async remove(id: string, userId: string): Promise<boolean> {
    const [, count] = (await this.db.query(`DELETE FROM "terminals"."terminal" WHERE "id" = $1 AND "user_id" = $2`, [id, userId])) as [
      unknown,
      number,
    ];
    return count === 1;
  }

  async grantIds(userId: string): Promise<string[]> {
    const rows = (await this.db.query(
      `SELECT DISTINCT "grant_id" FROM "terminals"."terminal" WHERE "user_id" = $1 AND "grant_id" IS NOT NULL ORDER BY "grant_id"`,
      [userId],
    )) as Array<{ grant_id: string }>;
    return rows.map((r) => r.grant_id);
  }

  /** Removes every terminal registered under these OAuth grants (their inboxes go with them); how many. */
  async removeByGrants(grantIds: string[]): Promise<number> {
    if (grantIds.length === 0) return 0;
    const [, count] = (await this.db.query(`DELETE FROM "terminals"."terminal" WHERE "grant_id" = ANY($1::text[])`, [grantIds])) as [
      unknown,
      number,
    ];
    return count;
  }

  async insertShare(row: Omit<ShareRow, 'created' | 'pushError'>): Promise<ShareRow> {
    const rows = (await this.db.query(
      `INSERT INTO "terminals"."share" ("id", "terminal_id", "user_id", "from_terminal_id", "content_type", "content", "description", "push")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [row.id, row.terminalId, row.userId, row.fromTerminalId, row.contentType, row.content, row.description, row.push],
    )) as Array<Record<string, unknown>>;
    return toShare(rows[0]!);
  }

  async findShare(id: string): Promise<ShareRow | null> {
    const rows = (await this.db.query(`SELECT * FROM "terminals"."share" WHERE "id" = $1`, [id])) as Array<Record<string, unknown>>;
    return rows[0] ? toShare(rows[0]) : null;
  }

  async setPush(shareId: string, push: ShareView['push'], error: string | null): Promise<void> {
    await this.db.query(`UPDATE "terminals"."share" SET "push" = $2, "push_error" = $3 WHERE "id" = $1`, [shareId, push, error]);
  }

  async shares(terminalId: string, offset: number, limit: number): Promise<{ rows: ShareRow[]; total: number }> {
    const [rows, counted] = await Promise.all([
      this.db.query(`SELECT * FROM "terminals"."share" WHERE "terminal_id" = $1 ORDER BY "created" DESC, "id" DESC LIMIT $2 OFFSET $3`, [
        terminalId,
        limit,
        offset,
      ]) as Promise<Array<Record<string, unknown>>>,
      this.db.query(`SELECT count(*)::int AS n FROM "terminals"."share" WHERE "terminal_id" = $1`, [terminalId]) as Promise<
        Array<{ n: number }>
      >,
    ]);
    return { rows: rows.map(toShare), total: counted[0]?.n ?? 0 };
  }

  async removeShare(shareId: string, terminalId: string): Promise<boolean> {
    const [, count] = (await this.db.query(`DELETE FROM "terminals"."share" WHERE "id" = $1 AND "terminal_id" = $2`, [
      shareId,
      terminalId,
    ])) as [unknown, number];
    return count === 1;
  }
}
