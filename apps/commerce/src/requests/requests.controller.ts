import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  AcceptRequestMessage,
  CreateRequestMessage,
  DeclineRequestMessage,
  ListRequestsMessage,
  RequestMessage,
  SUBJECTS,
  type OrderView,
  type PaymentRequestList,
  type PaymentRequestView,
} from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { RequestsService } from './requests.service.js';

/** NATS handlers: translate only. */
@Controller()
export class RequestsController {
  constructor(@Inject(RequestsService) private readonly requests: RequestsService) {}

  @Handles(SUBJECTS.commerce.requestCreate)
  create(@Payload() input: CreateRequestMessage): Promise<PaymentRequestView> {
    return this.requests.create(input);
  }

  @Handles(SUBJECTS.commerce.requestGet)
  get(@Payload() input: RequestMessage): Promise<PaymentRequestView> {
    return this.requests.get(input);
  }

  @Handles(SUBJECTS.commerce.requestList)
  list(@Payload() input: ListRequestsMessage): Promise<PaymentRequestList> {
    return this.requests.list(input);
  }

  @Handles(SUBJECTS.commerce.requestAccept)
  accept(@Payload() input: AcceptRequestMessage): Promise<{ request: PaymentRequestView; order: OrderView }> {
    return this.requests.accept(input);
  }

  @Handles(SUBJECTS.commerce.requestDecline)
  decline(@Payload() input: DeclineRequestMessage): Promise<PaymentRequestView> {
    return this.requests.decline(input);
  }

  @Handles(SUBJECTS.commerce.requestCancel)
  cancel(@Payload() input: RequestMessage): Promise<PaymentRequestView> {
    return this.requests.cancel(input);
  }
}
