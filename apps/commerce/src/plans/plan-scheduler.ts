import { InjectQueue, OnWorkerEvent, Processor } from '@nestjs/bullmq';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DrainingWorkerHost, type Logger } from '@tinkerdesk/nest-common';
import type { Job, Queue } from 'bullmq';
import { COMMERCE_LOGGER } from '../logger.token.js';
import { CLOCK, type Clock } from './clock.js';
import { PlansService, type DueListener } from './plans.service.js';

/** The BullMQ queue of plan charges (`BullModule.registerQueue({ name: PLAN_QUEUE })`). */
export const PLAN_QUEUE = 'commerce-plans';
export const SCHEDULER_SETTINGS = Symbol('SCHEDULER_SETTINGS');

export interface SchedulerSettings {
  /** How often every replica's sweep looks for due plans; 0: only when asked (tests). */
  sweepSeconds: number;
  concurrency: number;
}

type PlanJob = { kind: 'charge'; planId: string } | { kind: 'sweep' };

/** BullMQ job ids may not contain ':'. */
const jobId = (...parts: Array<string | number>) => parts.join('_');

/**
 * Runs plans' charges on BullMQ, so they happen on time with nobody online and survive restarts: each
 * due time is a delayed job (announced by PlansService); a repeatable sweep (a job scheduler, one
 * per queue whatever the number of replicas) catches anything a lost job or a stopped Redis missed,
 * and every replica sweeps once when it starts. Jobs are deduplicated by id while they wait; what
 * makes a period charged exactly once is PlansService.runDue (a claim in PostgreSQL and idempotency
 * keys), so two replicas, or a job that runs twice, never charge twice.
 */
@Injectable()
export class PlanScheduler implements DueListener, OnApplicationBootstrap {
  constructor(
    @InjectQueue(PLAN_QUEUE) private readonly queue: Queue<PlanJob>,
    @Inject(PlansService) private readonly plans: PlansService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings,
    @Inject(COMMERCE_LOGGER) private readonly logger: Logger,
  ) {
    queue.on('error', (err: Error) => this.logger.warn({ err: err.message }, 'plans queue error'));
  }

  /** After the processor's worker exists (onModuleInit of BullModule). */
  async onApplicationBootstrap(): Promise<void> {
    this.plans.onDue(this);
    if (this.settings.sweepSeconds > 0) {
      await this.queue.upsertJobScheduler(
        'plans-sweep',
        { every: this.settings.sweepSeconds * 1000 },
        { name: 'sweep', data: { kind: 'sweep' }, opts: { removeOnComplete: true, removeOnFail: true } },
      );
    }
    // Whatever fell due while no replica ran.
    await this.sweep();
  }

  private enqueue(planId: string, id: string, delay: number): Promise<unknown> {
    return this.queue.add(
      'charge',
      { kind: 'charge', planId },
      {
        jobId: id,
        delay: Math.max(0, delay),
        // The provider could not be reached: try again soon; the plan's own retries count failures only.
        attempts: 5,
        backoff: { type: 'exponential', delay: 15_000 },
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  }

  /** A plan's next charge or retry is due at `at`. */
  async planDue(planId: string, at: Date): Promise<void> {
    await this.enqueue(planId, jobId('at', planId, at.getTime()), at.getTime() - this.clock.now().getTime());
  }

  /** Queues every plan due now that no runner holds; answers how many. */
  async sweep(): Promise<number> {
    const due = await this.plans.due();
    await Promise.all(due.map((p) => this.enqueue(p.id, jobId('due', p.id, p.period, p.attempts), 0)));
    return due.length;
  }

  /** Waits until no charge job waits, runs or is due now (tests). */
  async idle(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const counts = await this.queue.getJobCounts('waiting', 'active', 'prioritized', 'waiting-children');
      if (Object.values(counts).every((n) => n === 0)) return;
      if (Date.now() > deadline) throw new Error(`plan jobs still running after ${timeoutMs} ms: ${JSON.stringify(counts)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/** Runs the plans' jobs in every commerce replica; on shutdown it finishes the running charges first. */
@Processor(PLAN_QUEUE)
export class PlanProcessor extends DrainingWorkerHost implements OnApplicationBootstrap {
  constructor(
    @Inject(PlanScheduler) private readonly scheduler: PlanScheduler,
    @Inject(PlansService) private readonly plans: PlansService,
    @Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings,
    @Inject(COMMERCE_LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  /**
   * PLAN_CONCURRENCY comes from the config, which `@Processor`'s options (read when this file loads)
   * cannot see: it is set on the worker (BullMQ's `concurrency` setter) once the module has made it.
   */
  onApplicationBootstrap(): void {
    this.worker.concurrency = this.settings.concurrency;
  }

  async process(job: Job<PlanJob>): Promise<string | number> {
    if (job.data.kind === 'sweep') return this.scheduler.sweep();
    return this.plans.runDue(job.data.planId);
  }

  @OnWorkerEvent('failed')
  failed(job: Job<PlanJob> | undefined, err: Error): void {
    this.logger.warn(
      { job: job?.id, attempts: job?.attemptsMade, err: err.message },
      'a plan job failed (it is retried; the sweep finds the plan again)',
    );
  }

  @OnWorkerEvent('error')
  error(err: Error): void {
    this.logger.error({ err: err.message }, 'plans worker error');
  }
}
