import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { createRedis, type Logger } from '@tinkerdesk/nest-common';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { COMMERCE_LOGGER } from '../logger.token.js';
import { CLOCK, type Clock } from './clock.js';
import { PlansService, type DueListener } from './plans.service.js';

export const PLAN_QUEUE = 'commerce-plans';
export const SCHEDULER_SETTINGS = Symbol('SCHEDULER_SETTINGS');

export interface SchedulerSettings {
  redisUrl: string;
  prefix: string;
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
export class PlanScheduler implements DueListener, OnApplicationBootstrap, OnModuleDestroy {
  private queue: Queue<PlanJob> | undefined;
  private worker: Worker<PlanJob> | undefined;
  private connections: Redis[] = [];

  constructor(
    @Inject(PlansService) private readonly plans: PlansService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings,
    @Inject(COMMERCE_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.close();
  }

  private redis(name: string): Redis {
    const redis = createRedis(this.settings.redisUrl, name, { forBullmq: true });
    redis.on('error', (err: Error) => this.logger.warn({ err: err.message }, 'redis connection error (plans)'));
    this.connections.push(redis);
    return redis;
  }

  async start(): Promise<void> {
    const queue = new Queue<PlanJob>(PLAN_QUEUE, { connection: this.redis('commerce-plans'), prefix: this.settings.prefix });
    queue.on('error', (err: Error) => this.logger.warn({ err: err.message }, 'plans queue error'));
    this.queue = queue;
    const worker = new Worker<PlanJob>(PLAN_QUEUE, (job) => this.process(job), {
      connection: this.redis('commerce-plans-worker'),
      prefix: this.settings.prefix,
      concurrency: this.settings.concurrency,
    });
    worker.on('failed', (job, err) =>
      this.logger.warn(
        { job: job?.id, attempts: job?.attemptsMade, err: err.message },
        'a plan job failed (it is retried; the sweep finds the plan again)',
      ),
    );
    worker.on('error', (err) => this.logger.error({ err: err.message }, 'plans worker error'));
    this.worker = worker;
    await worker.waitUntilReady();
    this.plans.onDue(this);
    if (this.settings.sweepSeconds > 0) {
      await queue.upsertJobScheduler(
        'plans-sweep',
        { every: this.settings.sweepSeconds * 1000 },
        { name: 'sweep', data: { kind: 'sweep' }, opts: { removeOnComplete: true, removeOnFail: true } },
      );
    }
    // Whatever fell due while no replica ran.
    await this.sweep();
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue?.close();
    await Promise.all(this.connections.map((c) => c.quit().catch(() => undefined)));
    this.connections = [];
    this.worker = undefined;
    this.queue = undefined;
  }

  private async process(job: Job<PlanJob>): Promise<string | number> {
    if (job.data.kind === 'sweep') return this.sweep();
    return this.plans.runDue(job.data.planId);
  }

  private enqueue(planId: string, id: string, delay: number): Promise<unknown> {
    if (!this.queue) return Promise.resolve();
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
      const counts = await this.queue!.getJobCounts('waiting', 'active', 'prioritized', 'waiting-children');
      if (Object.values(counts).every((n) => n === 0)) return;
      if (Date.now() > deadline) throw new Error(`plan jobs still running after ${timeoutMs} ms: ${JSON.stringify(counts)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}
