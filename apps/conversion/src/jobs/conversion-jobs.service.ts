import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppError, type ConversionJobView, type CreateConversionJobDto } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { ConversionJobsRepository, toView } from './conversion-jobs.repository.js';

export const CONVERSION_QUEUE_TOKEN = Symbol('CONVERSION_QUEUE');
export const LOGGER = Symbol('LOGGER');

export interface ConversionJobData {
  id: string;
}

@Injectable()
export class ConversionJobsService {
  private readonly jobs: ConversionJobsRepository;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(CONVERSION_QUEUE_TOKEN) private readonly queue: Queue<ConversionJobData>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.jobs = new ConversionJobsRepository(dataSource);
  }

  /** Records the job, then queues it; if queueing fails the record goes too (nothing half-written). */
  async create(input: CreateConversionJobDto): Promise<ConversionJobView> {
    if (await this.jobs.findById(input.id)) throw new AppError('CONFLICT', `job ${input.id} exists already`);
    const job = await this.jobs.insert(input);
    try {
      await this.queue.add('convert', { id: job.id }, { jobId: job.id, attempts: 3, backoff: { type: 'exponential', delay: 500 } });
    } catch (error) {
      await this.jobs.remove(job.id);
      this.logger.error({ err: error, jobId: job.id }, 'could not queue conversion job');
      throw new AppError('UNAVAILABLE', 'the conversion queue is not reachable');
    }
    this.logger.info({ jobId: job.id, to: input.to, size: input.size }, 'conversion job queued');
    return toView(job);
  }

  async get(id: string): Promise<ConversionJobView> {
    const job = await this.jobs.findById(id);
    if (!job) throw new AppError('NOT_FOUND', `no conversion job ${id}`);
    return toView(job);
  }
}
