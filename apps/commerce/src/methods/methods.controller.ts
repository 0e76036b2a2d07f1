import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  CompleteSetupMessage,
  UserIdMessage,
  PaymentMethodMessage,
  SetupPaymentMethodMessage,
  SUBJECTS,
  type Done,
  type PaymentInstrumentList,
  type PaymentInstrumentView,
  type PaymentSetupView,
} from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { MethodsService } from './methods.service.js';

/** NATS handlers: translate only. */
@Controller()
export class MethodsController {
  constructor(@Inject(MethodsService) private readonly methods: MethodsService) {}

  @Handles(SUBJECTS.commerce.methodSetup)
  setup(@Payload() input: SetupPaymentMethodMessage): Promise<PaymentSetupView> {
    return this.methods.setup(input);
  }

  @Handles(SUBJECTS.commerce.methodComplete)
  complete(@Payload() input: CompleteSetupMessage): Promise<PaymentInstrumentView> {
    return this.methods.complete(input.userId, input.sessionId);
  }

  @Handles(SUBJECTS.commerce.methodList)
  list(@Payload() input: UserIdMessage): Promise<PaymentInstrumentList> {
    return this.methods.list(input.userId);
  }

  @Handles(SUBJECTS.commerce.methodDefault)
  makeDefault(@Payload() input: PaymentMethodMessage): Promise<PaymentInstrumentView> {
    return this.methods.makeDefault(input.userId, input.methodId);
  }

  @Handles(SUBJECTS.commerce.methodDelete)
  async remove(@Payload() input: PaymentMethodMessage): Promise<Done> {
    await this.methods.remove(input.userId, input.methodId, input.replacement);
    return { success: true };
  }
}
