import type { ConversionJobView, CreateConversionJobDto, JobState } from '@tinkerdesk/contracts';
import type { DataSource, Repository } from 'typeorm';
import { ConversionJobEntity } from './conversion-job.entity.js';

export function toView(job: ConversionJobEntity): ConversionJobView {
  return {
    id: job.id,
    state: job.state,
    progress: job.progress,
    filename: job.filename,
    to: job.target,
    inputSize: job.inputSize,
    ...(job.state === 'completed' && job.outputFilename && job.outputMediaType && job.outputSize != null
      ? {
          output: {
            filename: job.outputFilename,
            mediaType: job.outputMediaType,
            size: job.outputSize,
            ...(job.outputWidth != null ? { width: job.outputWidth } : {}),
            ...(job.outputHeight != null ? { height: job.outputHeight } : {}),
          },
        }
      : {}),
    ...(job.error ? { error: job.error } : {}),
    created: job.created.toISOString(),
    modified: job.modified.toISOString(),
  };
}

export interface JobOutput {
  filename: string;
  mediaType: string;
  size: number;
  width?: number;
  height?: number;
}

/** The only place that touches TypeORM for conversion jobs (listener and worker share it). */
export class ConversionJobsRepository {
  private readonly repo: Repository<ConversionJobEntity>;

  constructor(dataSource: DataSource) {
    this.repo = dataSource.getRepository(ConversionJobEntity);
  }

  async insert(input: CreateConversionJobDto): Promise<ConversionJobEntity> {
    const job = this.repo.create({
      id: input.id,
      state: 'queued',
      progress: 0,
      filename: input.filename,
      mediaType: input.mediaType,
      inputSize: input.size,
      target: input.to,
      width: input.width ?? null,
      height: input.height ?? null,
    });
    return this.repo.save(job);
  }

  findById(id: string): Promise<ConversionJobEntity | null> {
    return this.repo.findOneBy({ id });
  }

  async remove(id: string): Promise<void> {
    await this.repo.delete({ id });
  }

  async setState(id: string, state: JobState, progress: number): Promise<void> {
    await this.repo.update({ id }, { state, progress });
  }

  async complete(id: string, output: JobOutput): Promise<void> {
    await this.repo.update(
      { id },
      {
        state: 'completed',
        progress: 100,
        outputFilename: output.filename,
        outputMediaType: output.mediaType,
        outputSize: output.size,
        outputWidth: output.width ?? null,
        outputHeight: output.height ?? null,
        error: null,
      },
    );
  }

  async fail(id: string, error: string): Promise<void> {
    await this.repo.update({ id }, { state: 'failed', error });
  }
}
