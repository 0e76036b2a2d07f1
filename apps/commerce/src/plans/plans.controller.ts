import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CreatePlanMessage, UserIdMessage, PlanMessage, SUBJECTS, type PlanList, type PlanView } from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { PlansService } from './plans.service.js';

/** NATS handlers: translate only. */
@Controller()
export class PlansController {
  constructor(@Inject(PlansService) private readonly plans: PlansService) {}

  @Handles(SUBJECTS.commerce.planCreate)
  create(@Payload() input: CreatePlanMessage): Promise<PlanView> {
    return this.plans.create(input);
  }

  @Handles(SUBJECTS.commerce.planList)
  list(@Payload() input: UserIdMessage): Promise<PlanList> {
    return this.plans.list(input.userId);
  }

  @Handles(SUBJECTS.commerce.planGet)
  get(@Payload() input: PlanMessage): Promise<PlanView> {
    return this.plans.get(input.planId, input.viewerId);
  }

  @Handles(SUBJECTS.commerce.planCancel)
  cancel(@Payload() input: PlanMessage): Promise<PlanView> {
    return this.plans.cancel(input.planId, input.viewerId);
  }
}
