import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  type EmptyMessage,
  GrantsEndedMessage,
  ListSharesMessage,
  RegisterTerminalMessage,
  SaveSubscriptionMessage,
  SendShareMessage,
  ShareMessage,
  SUBJECTS,
  TerminalMessage,
  UserIdMessage,
  TerminalTokenMessage,
  UpdateTerminalMessage,
  type Done,
  type ShareList,
  type ShareView,
  type TerminalCallerView,
  type TerminalList,
  type TerminalRegistration,
  type TerminalView,
} from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { TerminalsService } from './terminals.service.js';

/** NATS handlers: translate only. */
@Controller()
export class TerminalsController {
  constructor(@Inject(TerminalsService) private readonly terminals: TerminalsService) {}

  @Handles(SUBJECTS.terminals.terminalRegister)
  register(@Payload() input: RegisterTerminalMessage): Promise<TerminalRegistration> {
    return this.terminals.register(input);
  }

  @Handles(SUBJECTS.terminals.terminalList)
  list(@Payload() input: UserIdMessage): Promise<TerminalList> {
    return this.terminals.list(input.userId);
  }

  @Handles(SUBJECTS.terminals.terminalGet)
  get(@Payload() input: TerminalMessage): Promise<TerminalView> {
    return this.terminals.get(input.terminalId, input.userId, input.callerTerminalId);
  }

  @Handles(SUBJECTS.terminals.terminalUpdate)
  update(@Payload() input: UpdateTerminalMessage): Promise<TerminalView> {
    return this.terminals.update(input);
  }

  @Handles(SUBJECTS.terminals.terminalRemove)
  async remove(@Payload() input: TerminalMessage): Promise<Done> {
    await this.terminals.remove(input.terminalId, input.userId);
    return { success: true };
  }

  @Handles(SUBJECTS.terminals.tokenVerify)
  verify(@Payload() input: TerminalTokenMessage): Promise<TerminalCallerView> {
    return this.terminals.verifyToken(input.token);
  }

  @Handles(SUBJECTS.terminals.grantList)
  async grants(@Payload() input: UserIdMessage): Promise<{ grantIds: string[] }> {
    return { grantIds: await this.terminals.grants(input.userId) };
  }

  @Handles(SUBJECTS.terminals.grantsEnded)
  async grantsEnded(@Payload() input: GrantsEndedMessage): Promise<Done & { removed: number }> {
    return { success: true, removed: await this.terminals.grantsEnded(input.grantIds) };
  }

  @Handles(SUBJECTS.terminals.subscriptionSave)
  subscribe(@Payload() input: SaveSubscriptionMessage): Promise<TerminalView> {
    return this.terminals.saveSubscription(input);
  }

  @Handles(SUBJECTS.terminals.subscriptionRemove)
  unsubscribe(@Payload() input: TerminalMessage): Promise<TerminalView> {
    return this.terminals.removeSubscription(input.terminalId, input.userId, input.callerTerminalId);
  }

  @Handles(SUBJECTS.terminals.shareSend)
  send(@Payload() input: SendShareMessage): Promise<ShareView> {
    return this.terminals.send(input);
  }

  @Handles(SUBJECTS.terminals.shareList)
  shares(@Payload() input: ListSharesMessage): Promise<ShareList> {
    return this.terminals.shares(input);
  }

  @Handles(SUBJECTS.terminals.shareRemove)
  async removeShare(@Payload() input: ShareMessage): Promise<Done> {
    await this.terminals.removeShare(input.terminalId, input.userId, input.shareId, input.callerTerminalId);
    return { success: true };
  }

  @Handles(SUBJECTS.terminals.pushKey)
  pushKey(@Payload() _input: EmptyMessage): { publicKey: string } {
    return this.terminals.pushKey();
  }
}
