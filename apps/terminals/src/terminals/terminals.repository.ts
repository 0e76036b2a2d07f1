import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ShareView, TerminalView } from '@tinkerdesk/contracts';
import type { IdempotentCreate, StoredAnswer } from '@tinkerdesk/persistence';
import { In, type DataSource, type FindOptionsWhere, type Repository } from 'typeorm';
import { TERMINALS_EVENTS } from '@tinkerdesk/contracts';
import { recordTerminalsEvents, terminalsEvent, type TerminalsEventRecord } from '../events/terminals-events.js';
import { TERMINALS_KEYS } from '../database/idempotency-keys.js';
import { ShareEntity } from './share.entity.js';
import { TerminalEntity, type StoredSubscription } from './terminal.entity.js';

export type { StoredSubscription } from './terminal.entity.js';

export interface TerminalRow extends Omit<TerminalEntity, 'tokenHash' | 'grantId' | 'appId' | 'appName'> {
  /** The app (and its OAuth grant) that registered it; null when the user did. */
  app: { grantId: string; id: string; name: string } | null;
}

export type ShareRow = ShareEntity;

function toTerminal({ grantId, appId, appName, tokenHash: _tokenHash, ...rest }: TerminalEntity): TerminalRow {
  return { ...rest, app: grantId && appId && appName !== null ? { grantId, id: appId, name: appName } : null };
}

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
  private readonly terminals: Repository<TerminalEntity>;
  private readonly shareRows: Repository<ShareEntity>;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.terminals = db.getRepository(TerminalEntity);
    this.shareRows = db.getRepository(ShareEntity);
  }

  /** Inserts a terminal with its `terminal.registered` event, in one transaction. */
  async insert(
    row: Omit<TerminalRow, 'destination' | 'subscription' | 'inbox' | 'created' | 'modified'>,
    tokenHash: string,
  ): Promise<TerminalRow> {
    return (await this.insertOnce(row, tokenHash)).terminal;
  }

  /**
   * Inserts a terminal with its `terminal.registered` event, in one transaction; under an
   * Idempotency-Key, once (the key claimed in the same transaction). Only the terminal's id is stored
   * with the key, never its token: `replayed` says the terminal is the first request's, whose token
   * the caller replaces (rotateToken) to answer the retry.
   */
  async insertOnce(
    row: Omit<TerminalRow, 'destination' | 'subscription' | 'inbox' | 'created' | 'modified'>,
    tokenHash: string,
    idempotent?: IdempotentCreate,
  ): Promise<{ terminal: TerminalRow; replayed: boolean }> {
    const { app, ...fields } = row;
    const { answer, replayed } = await this.db.transaction((manager) =>
      TERMINALS_KEYS.once(manager, idempotent, async () => {
        await manager.insert(TerminalEntity, {
          ...fields,
          tokenHash,
          grantId: app?.grantId ?? null,
          appId: app?.id ?? null,
          appName: app?.name ?? null,
        });
        await recordTerminalsEvents(manager, [
          terminalsEvent(
            TERMINALS_EVENTS.terminalRegistered,
            { type: 'terminal', id: row.id },
            { terminal: { id: row.id, userId: row.userId } },
          ),
        ]);
        return { id: row.id };
      }),
    );
    return { terminal: (await this.find(answer.id, row.userId))!, replayed };
  }

  /** Gives the user's terminal a new token (its hash); false when the terminal is gone. */
  async rotateToken(id: string, userId: string, tokenHash: string): Promise<boolean> {
    return ((await this.terminals.update({ id, userId }, { tokenHash })).affected ?? 0) > 0;
  }

  /** A create's stored answer under its key, when the same request was made before (IdempotencyKeys.replay). */
  replay(idempotent: IdempotentCreate | undefined): Promise<StoredAnswer | undefined> {
    return TERMINALS_KEYS.replay(this.db, idempotent);
  }

  count(userId: string): Promise<number> {
    return this.terminals.countBy({ userId });
  }

  async list(userId: string): Promise<TerminalRow[]> {
    return (await this.terminals.find({ where: { userId }, order: { created: 'ASC', id: 'ASC' } })).map(toTerminal);
  }

  /** A terminal of the user, or null (another user's answers null too). */
  async find(id: string, userId: string): Promise<TerminalRow | null> {
    const terminal = await this.terminals.findOneBy({ id, userId });
    return terminal ? toTerminal(terminal) : null;
  }

  async findByTokenHash(hash: string): Promise<TerminalRow | null> {
    const terminal = await this.terminals.findOneBy({ tokenHash: hash });
    return terminal ? toTerminal(terminal) : null;
  }

  async update(
    id: string,
    userId: string,
    fields: Partial<Pick<TerminalRow, 'label' | 'send' | 'receive' | 'active' | 'destination'>>,
  ): Promise<TerminalRow | null> {
    // TypeORM leaves undefined fields out of the SET list.
    if (Object.values(fields).some((value) => value !== undefined)) {
      await this.terminals.update({ id, userId }, { ...fields, modified: () => 'now()' });
    }
    return this.find(id, userId);
  }

  async setSubscription(id: string, userId: string, subscription: StoredSubscription | null): Promise<TerminalRow | null> {
    await this.terminals.update({ id, userId }, { subscription, modified: () => 'now()' });
    return this.find(id, userId);
  }

  /** Forgets a subscription the push service said is gone (404/410), only if it is still that one. */
  async dropSubscription(id: string, endpoint: string): Promise<boolean> {
    const result = await this.terminals
      .createQueryBuilder()
      .update()
      .set({ subscription: null, modified: () => 'now()' })
      .where(`"id" = :id AND "subscription"->>'endpoint' = :endpoint`, { id, endpoint })
      .execute();
    return result.affected === 1;
  }

  /** Removes the user's terminal with its `terminal.removed` event, in one transaction; false when there is none. */
  async remove(id: string, userId: string): Promise<boolean> {
    return (await this.removeWhere({ id, userId }, 'removed')) === 1;
  }

  /**
   * Deletes the terminals a condition picks (their inboxes go with them) and records a
   * `terminal.removed` event for each one in the same transaction; how many.
   */
  private async removeWhere(where: FindOptionsWhere<TerminalEntity>, reason: 'removed' | 'grant ended'): Promise<number> {
    return this.db.transaction(async (manager) => {
      const rows = await manager.find(TerminalEntity, { where, select: { id: true, userId: true } });
      if (rows.length === 0) return 0;
      // Deleted by id: a row another transaction removed meanwhile is not announced twice.
      const gone = new Set<string>();
      for (const r of rows) if ((await manager.delete(TerminalEntity, { id: r.id })).affected === 1) gone.add(r.id);
      await recordTerminalsEvents(
        manager,
        rows
          .filter((r) => gone.has(r.id))
          .map((r) =>
            terminalsEvent(
              TERMINALS_EVENTS.terminalRemoved,
              { type: 'terminal', id: r.id },
              { terminal: { id: r.id, userId: r.userId }, reason },
            ),
          ),
      );
      return gone.size;
    });
  }

  async grantIds(userId: string): Promise<string[]> {
    const rows = await this.terminals
      .createQueryBuilder('t')
      .select('t.grant_id', 'grant_id')
      .distinct(true)
      .where('t.user_id = :userId AND t.grant_id IS NOT NULL', { userId })
      .orderBy('t.grant_id')
      .getRawMany<{ grant_id: string }>();
    return rows.map((r) => r.grant_id);
  }

  /** Removes every terminal registered under these OAuth grants (their inboxes go with them); how many. */
  async removeByGrants(grantIds: string[]): Promise<number> {
    if (grantIds.length === 0) return 0;
    return this.removeWhere({ grantId: In(grantIds) }, 'grant ended');
  }

  /** Inserts a share and records its events in the outbox, in one transaction (published after commit). */
  /** Under an Idempotency-Key, once (the key claimed in the same transaction): a retry answers the first share. */
  async insertShare(
    row: Omit<ShareRow, 'created' | 'pushError'>,
    events: TerminalsEventRecord[] = [],
    idempotent?: IdempotentCreate,
  ): Promise<ShareRow> {
    const share = this.shareRows.create({ ...row, pushError: null });
    const { answer, replayed } = await this.db.transaction((manager) =>
      TERMINALS_KEYS.once(manager, idempotent, async () => {
        await manager.insert(ShareEntity, share); // sets its created (clock_timestamp())
        await recordTerminalsEvents(manager, events);
        return share.id;
      }),
    );
    return replayed ? this.shareRows.findOneByOrFail({ id: answer }) : share;
  }

  findShare(id: string): Promise<ShareRow | null> {
    return this.shareRows.findOneBy({ id });
  }

  async setPush(shareId: string, push: ShareView['push'], error: string | null): Promise<void> {
    await this.shareRows.update({ id: shareId }, { push, pushError: error });
  }

  async shares(terminalId: string, offset: number, limit: number): Promise<{ rows: ShareRow[]; total: number }> {
    const [rows, total] = await this.shareRows.findAndCount({
      where: { terminalId },
      order: { created: 'DESC', id: 'DESC' },
      skip: offset,
      take: limit,
    });
    return { rows, total };
  }

  async removeShare(shareId: string, terminalId: string): Promise<boolean> {
    return (await this.shareRows.delete({ id: shareId, terminalId })).affected === 1;
  }
}
