import { Module } from '@nestjs/common';
import { TimelineController } from './timeline.controller.js';
import { TimelineRepository } from './timeline.repository.js';
import { TimelineService } from './timeline.service.js';

/** Accounts' timelines (the `timeline_event` table), written by the outbox's timeline listener: exports TimelineService. */
@Module({
  controllers: [TimelineController],
  providers: [TimelineRepository, TimelineService],
  exports: [TimelineService],
})
export class TimelineModule {}
