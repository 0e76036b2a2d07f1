import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  SandboxAuthenticateMessage,
  SandboxPayMessage,
  SandboxSessionMessage,
  SUBJECTS,
  type SandboxSessionView,
} from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { SandboxService } from './sandbox.service.js';

/** NATS handlers: translate only. */
@Controller()
export class SandboxController {
  constructor(@Inject(SandboxService) private readonly sandbox: SandboxService) {}

  @Handles(SUBJECTS.commerce.sandboxGet)
  get(@Payload() input: SandboxSessionMessage): Promise<SandboxSessionView> {
    return this.sandbox.get(input.sessionId);
  }

  @Handles(SUBJECTS.commerce.sandboxPay)
  pay(@Payload() input: SandboxPayMessage): Promise<SandboxSessionView> {
    return this.sandbox.pay(input.sessionId, input);
  }

  @Handles(SUBJECTS.commerce.sandboxAuthenticate)
  authenticate(@Payload() input: SandboxAuthenticateMessage): Promise<SandboxSessionView> {
    return this.sandbox.authenticate(input.sessionId, input.approve);
  }

  @Handles(SUBJECTS.commerce.sandboxCancel)
  cancel(@Payload() input: SandboxSessionMessage): Promise<SandboxSessionView> {
    return this.sandbox.cancel(input.sessionId);
  }
}
