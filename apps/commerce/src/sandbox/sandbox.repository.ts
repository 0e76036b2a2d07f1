import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { entityColumns, sql } from '@tinkerdesk/persistence';
import { IsNull, Not, type DataSource, type Repository } from 'typeorm';
import { SandboxCardEntity } from './sandbox-card.entity.js';
import { SandboxChargeEntity } from './sandbox-charge.entity.js';
import { SandboxRefundEntity } from './sandbox-refund.entity.js';
import { SandboxSessionEntity, type SandboxStatus } from './sandbox-session.entity.js';

export type { PendingCard, SandboxStatus } from './sandbox-session.entity.js';

export type SandboxSessionRow = Omit<SandboxSessionEntity, 'created' | 'modified'>;

export type SandboxCardRow = Omit<SandboxCardEntity, 'created'>;

export type SandboxChargeRow = Omit<SandboxChargeEntity, 'created'>;

const toSession = ({ created: _created, modified: _modified, ...session }: SandboxSessionEntity): SandboxSessionRow => session;

/** The only place that touches the sandbox processor's sessions. */
@Injectable()
export class SandboxRepository {
  private readonly sessions: Repository<SandboxSessionEntity>;
  private readonly cards: Repository<SandboxCardEntity>;
  private readonly charges: Repository<SandboxChargeEntity>;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sessions = db.getRepository(SandboxSessionEntity);
    this.cards = db.getRepository(SandboxCardEntity);
    this.charges = db.getRepository(SandboxChargeEntity);
  }

  async insert(
    row: Omit<SandboxSessionRow, 'status' | 'error' | 'paymentIntent' | 'refunded' | 'refundedAmount' | 'cardId' | 'pendingCard'>,
  ): Promise<void> {
    const { id, mode, orderId, userId, account, amount, currency, email, productName, sellerName, successUrl, cancelUrl, expiresAt } = row;
    await this.sessions.insert({
      id,
      mode,
      orderId,
      userId,
      account,
      amount,
      currency,
      email,
      productName,
      sellerName,
      status: 'open',
      successUrl,
      cancelUrl,
      expiresAt,
    });
  }

  async find(id: string): Promise<SandboxSessionRow | null> {
    const session = await this.sessions.findOneBy({ id });
    return session ? toSession(session) : null;
  }

  /**
   * Moves a session from one of `from` to `to` (with the fields given) only if it is still in one of
   * them: of two tries at once, exactly one wins. Answers the session after the change, or null.
   */
  async transition(
    id: string,
    from: SandboxStatus[],
    to: SandboxStatus,
    fields: { error?: string | null; paymentIntent?: string; pendingCard?: SandboxSessionRow['pendingCard'] },
  ): Promise<SandboxSessionRow | null> {
    const session = await sql.maybeOne<SandboxSessionEntity>(
      this.db,
      `UPDATE "commerce"."sandbox_session"
         SET "status" = $3, "error" = $4, "payment_intent" = COALESCE($5, "payment_intent"), "pending_card" = $6::jsonb, "modified" = now()
       WHERE "id" = $1 AND "status" = ANY($2::text[]) AND ("expires_at" > now() OR $3 = 'expired')
       RETURNING ${entityColumns(this.db, SandboxSessionEntity)}`,
      [id, from, to, fields.error ?? null, fields.paymentIntent ?? null, fields.pendingCard ? JSON.stringify(fields.pendingCard) : null],
    );
    return session ? toSession(session) : null;
  }

  /**
   * Saves a card for a setup session that is still open (or waiting for its 3-D Secure step) and
   * completes the session, in one transaction: of two tries at once, one card is kept.
   */
  async saveCard(sessionId: string, from: SandboxStatus[], card: Omit<SandboxCardRow, 'detached'>): Promise<SandboxSessionRow | null> {
    return this.db.transaction(async (tx) => {
      const session = await sql.maybeOne<SandboxSessionEntity>(
        tx,
        `UPDATE "commerce"."sandbox_session" SET "status" = 'complete', "error" = NULL, "card_id" = $3, "pending_card" = NULL, "modified" = now()
         WHERE "id" = $1 AND "mode" = 'setup' AND "status" = ANY($2::text[]) AND "expires_at" > now()
         RETURNING ${entityColumns(tx, SandboxSessionEntity)}`,
        [sessionId, from, card.id],
      );
      if (!session) return null;
      const { id, userId, brand, last4, expMonth, expYear, chargesFail } = card;
      await tx.getRepository(SandboxCardEntity).insert({ id, userId, brand, last4, expMonth, expYear, chargesFail });
      return toSession(session);
    });
  }

  async findCard(id: string): Promise<SandboxCardRow | null> {
    const card = await this.cards.findOneBy({ id });
    if (!card) return null;
    const { created: _created, ...row } = card;
    return row;
  }

  async detachCard(id: string): Promise<void> {
    await this.cards.update({ id }, { detached: true });
  }

  /**
   * An off-session charge, once per idempotency key: a second call with the key answers the first
   * call's charge (as Stripe's idempotency keys do), whatever happened between.
   */
  async charge(row: SandboxChargeRow): Promise<SandboxChargeRow> {
    const { id, idempotencyKey, cardId, account, amount, paid, error } = row;
    await this.charges
      .createQueryBuilder()
      .insert()
      .values({ id, idempotencyKey, cardId, account, amount, paid, error })
      .orIgnore()
      .updateEntity(false)
      .execute();
    const { created: _created, ...charge } = await this.charges.findOneByOrFail({ idempotencyKey });
    return charge;
  }

  /** A declined card: the session stays open with the reason. */
  async setError(id: string, error: string): Promise<SandboxSessionRow | null> {
    const session = await sql.maybeOne<SandboxSessionEntity>(
      this.db,
      `UPDATE "commerce"."sandbox_session" SET "error" = $2, "modified" = now() WHERE "id" = $1 AND "status" = 'open'
       RETURNING ${entityColumns(this.db, SandboxSessionEntity)}`,
      [id, error],
    );
    return session ? toSession(session) : null;
  }

  async findByPayment(paymentIntent: string, account: string): Promise<SandboxSessionRow | null> {
    const session = await this.sessions.findOneBy({ paymentIntent, account });
    return session ? toSession(session) : null;
  }

  /**
   * Refunds `amount` cents of a paid session's payment under `key`, in one transaction with the
   * session's row locked: a key seen before answers its refund (a retry refunds nothing twice); more
   * than what remains refunds nothing ('too_much', as Stripe refuses it); no such paid payment: 'missing'.
   */
  refund(paymentIntent: string, account: string, amount: number, key: string): Promise<{ id: string } | 'too_much' | 'missing'> {
    return this.db.transaction(async (m) => {
      const session = await m
        .getRepository(SandboxSessionEntity)
        .findOne({ where: { paymentIntent, account, status: 'complete' }, lock: { mode: 'pessimistic_write' } });
      if (!session) return 'missing';
      const refunds = m.getRepository(SandboxRefundEntity);
      const before = await refunds.findOneBy({ idempotencyKey: key });
      if (before) return { id: before.id };
      if (amount < 1 || session.refundedAmount + amount > session.amount) return 'too_much';
      const refundedAmount = session.refundedAmount + amount;
      await m
        .getRepository(SandboxSessionEntity)
        .update({ id: session.id }, { refundedAmount, refunded: refundedAmount === session.amount, modified: () => 'now()' });
      const id = `re_sandbox_${session.id.slice(-8)}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
      await refunds.insert({ idempotencyKey: key, id, paymentIntent, account, amount });
      return { id };
    });
  }

  /** What the sandbox refunded of an order's payments (tests compare it with the order). */
  async refundedFor(orderId: string): Promise<number> {
    const rows = await this.sessions.findBy({ orderId, paymentIntent: Not(IsNull()) });
    return rows.reduce((sum, row) => sum + row.refundedAmount, 0);
  }

  /** Charges made: sessions that were paid (tests count charges per order). */
  chargesFor(orderId: string): Promise<number> {
    return this.sessions.countBy({ orderId, paymentIntent: Not(IsNull()) });
  }
}
