import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { SUBJECTS, TimelineEventMessage, TimelineQueryMessage, type TimelineEvent, type TimelinePage } from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { TimelineService } from './timeline.service.js';

/** NATS handlers: translate only. */
@Controller()
export class TimelineController {
  constructor(@Inject(TimelineService) private readonly timeline: TimelineService) {}

  @Handles(SUBJECTS.commerce.timelineList)
  list(@Payload() input: TimelineQueryMessage): Promise<TimelinePage> {
    return this.timeline.page(input.userId, input.offset, input.limit);
  }

  @Handles(SUBJECTS.commerce.timelineGet)
  get(@Payload() input: TimelineEventMessage): Promise<TimelineEvent> {
    return this.timeline.get(input.userId, input.eventId);
  }
}
