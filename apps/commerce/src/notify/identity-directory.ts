import { Inject, Injectable } from '@nestjs/common';
import { AppError, SUBJECTS, type SendMailMessage } from '@tinkerdesk/contracts';
import { RpcClient, type Logger } from '@tinkerdesk/nest-common';
import { COMMERCE_LOGGER } from '../logger.token.js';

/**
 * The mails of one event with their idempotency keys, `<event id>:<recipient>` (the account id or the
 * address; `:2`, `:3`… for a second mail to the same recipient): handled again after a crash between
 * sending and marking the event processed, the event's mails go out once (identity keeps the keys).
 */
export function keyedMails(eventId: string, mails: SendMailMessage[]): SendMailMessage[] {
  const seen = new Map<string, number>();
  return mails.map((mail) => {
    const recipient = mail.toUserId ?? mail.to ?? '';
    const nth = (seen.get(recipient) ?? 0) + 1;
    seen.set(recipient, nth);
    return { ...mail, key: `${eventId}:${recipient}${nth > 1 ? `:${nth}` : ''}` };
  });
}

/**
 * What commerce asks identity (over NATS; it never reads identity's tables): a user's public name,
 * an account's email address, and mail sent through identity's queue (retried there with backoff).
 */
@Injectable()
export class IdentityDirectory {
  constructor(
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(COMMERCE_LOGGER) private readonly logger: Logger,
  ) {}

  /** The public name of an active account, or null when there is none. */
  async publicName(userId: string): Promise<string | null> {
    try {
      return (await this.rpc.send(SUBJECTS.identity.userPublic, { id: userId })).name;
    } catch (error) {
      if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'IDENTIFIER_NOT_FOUND')) return null;
      throw error;
    }
  }

  /** The account's email address once verified (to match an order placed signed out), else null. */
  async verifiedEmail(userId: string): Promise<string | null> {
    try {
      const profile = await this.rpc.send(SUBJECTS.identity.userMe, { userId });
      return profile.verified ? profile.email : null;
    } catch (error) {
      if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'IDENTIFIER_NOT_FOUND')) return null;
      throw error;
    }
  }

  /** The account with this verified address, if any. */
  async accountOf(email: string): Promise<string | null> {
    return (await this.rpc.send(SUBJECTS.identity.userFindByEmail, { email })).userId;
  }

  /**
   * Queues an email at identity; a failure throws (the mail listener's event is redelivered). With a
   * `key` (keyedMails), identity queues it once however often it is sent.
   */
  async send(message: SendMailMessage): Promise<void> {
    await this.rpc.send(SUBJECTS.identity.mailSend, message, 5000);
  }

  /**
   * Queues an email; a failure is logged, never the caller's (the order is paid whether or not its
   * receipt could be queued this moment: GET /v1/orders/{id} shows it too).
   */
  async mail(message: SendMailMessage): Promise<void> {
    try {
      await this.rpc.send(SUBJECTS.identity.mailSend, message, 5000);
    } catch (error) {
      this.logger.error(
        { err: error instanceof Error ? error.message : String(error), subject: message.subject },
        'could not queue an email',
      );
    }
  }
}
