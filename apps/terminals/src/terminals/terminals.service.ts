import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  PUSH_DEFAULT_ACTION,
  TERMINALS_EVENTS,
  type ListSharesMessage,
  type PushMessage,
  type RegisterTerminalMessage,
  type SaveSubscriptionMessage,
  type SendShareMessage,
  type ShareList,
  type ShareView,
  type TerminalCallerView,
  type TerminalList,
  type TerminalRegistration,
  type TerminalView,
  type UpdateTerminalMessage,
} from '@tinkerdesk/contracts';
import { terminalsEvent } from '../events/terminals-events.js';
import { createUnderKey, type StoredAnswer } from '@tinkerdesk/persistence';
import { PushSender } from '../push/push-sender.js';
import { shareView, terminalView, TerminalsRepository, type TerminalRow } from './terminals.repository.js';

/** Terminals one account may register. */
export const MAX_TERMINALS = 50;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** What a registration stores under its Idempotency-Key: the terminal's id (never its token). */
function isRegistration(answer: StoredAnswer | undefined): answer is { id: string } {
  return typeof answer === 'object' && answer !== null && !Array.isArray(answer) && typeof answer['id'] === 'string';
}

/** A new terminal token and the SHA-256 that is stored of it. */
function newTerminalToken(): { token: string; hash: string } {
  const token = `tt_${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

/** A push notification's title for a share. */
function pushTitle(contentType: ShareView['contentType'], from: TerminalRow | null): string {
  const what = contentType === 'text/x-uri' ? 'A link' : 'A note';
  return from ? `${what} from ${from.label}` : `${what} for you`;
}

/**
 * Terminals: browsers a signed-in user registers to send and receive shared content. Each gets a
 * random token (shown once, stored as its SHA-256) it can use instead of the user's session for its
 * own calls (sharing, its push subscription). A share is kept in the target's inbox and pushed to it
 * after commit (its `terminals.share.created` event);
 * a target that is inactive, does not receive, or is another account's is an error, never a silent drop.
 */
@Injectable()
export class TerminalsService {
  constructor(
    @Inject(TerminalsRepository) private readonly terminals: TerminalsRepository,
    @Inject(PushSender) private readonly push: PushSender,
  ) {}

  async register(input: RegisterTerminalMessage): Promise<TerminalRegistration> {
    const idempotent = createUnderKey('terminal.register', input.userId, input);
    // A retry of a registration that succeeded answers it, even with the account full now.
    const replayed = await this.terminals.replay(idempotent);
    if (isRegistration(replayed)) {
      const again = await this.answerRetry(replayed.id, input.userId);
      if (again) return again;
    }
    if ((await this.terminals.count(input.userId)) >= MAX_TERMINALS)
      throw new AppError('CONFLICT', `an account may register at most ${MAX_TERMINALS} terminals: remove one first`);
    const fresh = newTerminalToken();
    const { terminal, replayed: raced } = await this.terminals.insertOnce(
      {
        id: randomUUID(),
        userId: input.userId,
        label: input.label.trim(),
        send: input.send,
        receive: input.receive,
        active: input.active,
        details: input.details ?? {},
        platform: input.platform,
        capabilities: [...new Set(input.capabilities)],
        remote: input.remote,
        app: input.app ? { grantId: input.app.grantId, id: input.app.appId, name: input.app.appName } : null,
      },
      fresh.hash,
      idempotent,
    );
    if (raced) {
      // The same request ran alongside and registered the terminal: answered as a retry.
      const again = await this.answerRetry(terminal.id, input.userId);
      if (again) return again;
      throw new AppError('NOT_FOUND', 'this terminal was removed meanwhile');
    }
    return { terminal: terminalView(terminal), terminalToken: fresh.token };
  }

  /**
   * A retried registration (same Idempotency-Key, same request) answers the same terminal. Its token
   * is stored only as a hash, so the retry cannot be given the first answer's token: the terminal gets
   * a new one, and the token of an earlier answer (lost on its way, as a retry supposes) stops working.
   * Undefined when the terminal was removed since.
   */
  private async answerRetry(id: string, userId: string): Promise<TerminalRegistration | undefined> {
    const fresh = newTerminalToken();
    if (!(await this.terminals.rotateToken(id, userId, fresh.hash))) return undefined;
    const terminal = await this.terminals.find(id, userId);
    return terminal ? { terminal: terminalView(terminal), terminalToken: fresh.token } : undefined;
  }

  async list(userId: string): Promise<TerminalList> {
    return { terminals: (await this.terminals.list(userId)).map(terminalView) };
  }

  /** The user's terminal; with a terminal's token, that terminal only (any other is answered as missing). */
  private async own(terminalId: string, userId: string, callerTerminalId?: string): Promise<TerminalRow> {
    if (callerTerminalId && callerTerminalId !== terminalId) throw new AppError('NOT_FOUND', 'no such terminal');
    const row = await this.terminals.find(terminalId, userId);
    if (!row) throw new AppError('NOT_FOUND', 'no such terminal');
    return row;
  }

  async get(terminalId: string, userId: string, callerTerminalId?: string): Promise<TerminalView> {
    return terminalView(await this.own(terminalId, userId, callerTerminalId));
  }

  async update(input: UpdateTerminalMessage): Promise<TerminalView> {
    await this.own(input.terminalId, input.userId);
    if (input.destination) {
      if (input.destination === input.terminalId)
        throw new AppError('UNPROCESSABLE', 'a terminal’s destination is another terminal (null: its own inbox)');
      await this.own(input.destination, input.userId).catch(() => {
        throw new AppError('NOT_FOUND', 'no such destination terminal');
      });
    }
    const row = await this.terminals.update(input.terminalId, input.userId, {
      ...(input.label !== undefined ? { label: input.label.trim() } : {}),
      ...(input.send !== undefined ? { send: input.send } : {}),
      ...(input.receive !== undefined ? { receive: input.receive } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
      ...(input.destination !== undefined ? { destination: input.destination } : {}),
    });
    return terminalView(row!);
  }

  async remove(terminalId: string, userId: string): Promise<void> {
    if (!(await this.terminals.remove(terminalId, userId))) throw new AppError('NOT_FOUND', 'no such terminal');
  }

  /**
   * Whose terminal token this is, and the OAuth grant that registered it (the gateway lets the token
   * work only while that grant lives); INVALID_TOKEN for none (its terminal was removed).
   */
  async verifyToken(token: string): Promise<TerminalCallerView> {
    const row = await this.terminals.findByTokenHash(hashToken(token));
    if (!row) throw new AppError('INVALID_TOKEN', 'this terminal token is not valid (the terminal was removed?)');
    return { userId: row.userId, terminalId: row.id, grantId: row.app?.grantId ?? null };
  }

  /** The OAuth grants under which apps registered the user's terminals. */
  async grants(userId: string): Promise<string[]> {
    return this.terminals.grantIds(userId);
  }

  /** OAuth grants ended (consent withdrawn, app deleted, refresh token reused): the terminals their apps registered go. Idempotent. */
  async grantsEnded(grantIds: string[]): Promise<number> {
    return this.terminals.removeByGrants(grantIds);
  }

  async saveSubscription(input: SaveSubscriptionMessage): Promise<TerminalView> {
    // A terminal's token subscribes that terminal only; another terminal of the account is answered as missing.
    await this.own(input.terminalId, input.userId, input.callerTerminalId);
    if (!this.push.enabled) throw new AppError('UNAVAILABLE', 'push notifications unavailable');
    const problem = this.push.endpointProblem(input.endpoint);
    if (problem) throw new AppError('VALIDATION_FAILED', problem);
    const row = await this.terminals.setSubscription(input.terminalId, input.userId, {
      endpoint: input.endpoint,
      expirationTime: input.expirationTime ?? null,
      keys: { p256dh: input.keys.p256dh, auth: input.keys.auth },
    });
    return terminalView(row!);
  }

  async removeSubscription(terminalId: string, userId: string, callerTerminalId?: string): Promise<TerminalView> {
    await this.own(terminalId, userId, callerTerminalId);
    return terminalView((await this.terminals.setSubscription(terminalId, userId, null))!);
  }

  /**
   * Sends a share to a terminal of the account: kept in its inbox, then pushed. Sent with a terminal's
   * own token to its own id (the share sheet of that device), it goes to the terminal's destination
   * when one is chosen.
   */
  async send(input: SendShareMessage): Promise<ShareView> {
    let from: TerminalRow | null = null;
    let targetId = input.terminalId;
    if (input.fromTerminalId) {
      from = await this.own(input.fromTerminalId, input.userId);
      if (!from.active) throw new AppError('CONFLICT', 'this terminal is inactive: switch it on to send');
      if (!from.send) throw new AppError('FORBIDDEN', 'this terminal may not send: switch sending on first');
      if (input.terminalId === from.id && from.destination) targetId = from.destination;
    }
    const target = await this.own(targetId, input.userId);
    if (!target.active) throw new AppError('CONFLICT', `${target.label} is inactive: it receives nothing`);
    if (!target.receive) throw new AppError('CONFLICT', `${target.label} does not receive shares`);
    const pushing = target.subscription !== null && this.push.enabled;
    const id = randomUUID();
    const contentType = input.contentType;
    const description = (input.description ?? '').trim();
    const message: PushMessage | null = pushing
      ? {
          title: pushTitle(contentType, from),
          description: description || input.content.slice(0, 200),
          action: contentType === 'text/x-uri' ? 'Open' : PUSH_DEFAULT_ACTION,
          contentType,
          content: input.content,
          shareId: id,
          terminalId: target.id,
        }
      : null;
    // The share and its event commit together; the push listener queues the delivery after the
    // commit (terminals-outbox.ts): no call to the queue while the transaction is open.
    const row = await this.terminals.insertShare(
      {
        id,
        terminalId: target.id,
        userId: input.userId,
        fromTerminalId: from?.id ?? null,
        contentType,
        content: input.content,
        description,
        push: pushing ? 'pending' : 'none',
      },
      [
        terminalsEvent(
          TERMINALS_EVENTS.shareCreated,
          { type: 'share', id },
          { share: { id, terminalId: target.id, userId: input.userId, fromTerminalId: from?.id ?? null }, push: message },
        ),
      ],
      createUnderKey('share.send', input.userId, input),
    );
    return shareView(row);
  }

  async shares(input: ListSharesMessage): Promise<ShareList> {
    await this.own(input.terminalId, input.userId, input.callerTerminalId);
    const offset = input.offset ?? 0;
    const limit = input.limit ?? 20;
    const { rows, total } = await this.terminals.shares(input.terminalId, offset, limit);
    return { shares: rows.map(shareView), total, offset, limit };
  }

  async removeShare(terminalId: string, userId: string, shareId: string, callerTerminalId?: string): Promise<void> {
    await this.own(terminalId, userId, callerTerminalId);
    if (!(await this.terminals.removeShare(shareId, terminalId))) throw new AppError('NOT_FOUND', 'no such share');
  }

  pushKey(): { publicKey: string } {
    const publicKey = this.push.publicKey;
    if (!publicKey) throw new AppError('UNAVAILABLE', 'push notifications unavailable');
    return { publicKey };
  }
}
