import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import { AppError, SUBJECTS, TERMINAL_TOKEN } from '@tinkerdesk/contracts';
import type { Request } from 'express';
import { BearerGuard, bearerToken, type AuthenticatedSession } from '../auth/bearer.guard.js';

/** Who calls: the user (their session) or one of their terminals (its terminal token). */
export interface TerminalCaller {
  userId: string;
  /** Set when a terminal token made the call: it may act on that terminal only. */
  terminalId?: string;
}

type CallerRequest = Request & { session?: AuthenticatedSession; terminalCaller?: TerminalCaller };

/**
 * For the calls a terminal makes itself (docs/api.md#terminals-and-web-push: sharing, "the user's or the sending
 * terminal's token"; its push subscription; its inbox): a bearer token that is a terminal token
 * (tt_…) is checked by the terminals service; any other is a user's session, checked as BearerGuard does.
 */
@Injectable()
export class TerminalOrUserGuard extends BearerGuard implements CanActivate {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<CallerRequest>();
    const token = bearerToken(req);
    if (token && TERMINAL_TOKEN.test(token)) {
      const caller = await this.rpc.send(SUBJECTS.terminals.tokenVerify, { token });
      // A terminal an app registered works while the user's consent to that app (its grant) lives,
      // checked on each use like the app's access tokens: whether or not the terminals service heard
      // that the grant ended (then it is told again here).
      if (caller.grantId && !(await this.oauthTokens.grantLives(caller.grantId))) {
        await this.oauthTokens.grantsEnded([caller.grantId]);
        throw new AppError('INVALID_TOKEN', 'this terminal token is not valid: the app that registered the terminal lost its access');
      }
      req.terminalCaller = { userId: caller.userId, terminalId: caller.terminalId };
      return true;
    }
    await super.canActivate(context);
    req.terminalCaller = { userId: req.session!.userId };
    return true;
  }
}

/** The caller the TerminalOrUserGuard verified. */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): TerminalCaller => {
  const caller = context.switchToHttp().getRequest<CallerRequest>().terminalCaller;
  if (!caller) throw new AppError('UNAUTHORIZED', 'this call needs a bearer token');
  return caller;
});
