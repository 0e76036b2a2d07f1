import { createServer, type Server } from 'node:http';
import { connect } from '@nats-io/transport-node';
import { CONVERSION_BUCKET, CONVERSION_QUEUE, conversionInputKey, conversionOutputKey, type ImageTarget } from '@tinkerdesk/contracts';
import { announceReady, createLogger, createRedis, loadConfigOrExit, openFileStore, type Logger } from '@tinkerdesk/nest-common';
import { serviceDataSourceOptions } from '@tinkerdesk/persistence';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { schema } from '../config.js';
import { dataSourceOptions } from '../database/data-source.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';
import type { ConversionJobData } from './conversion-jobs.service.js';
import { ConversionFailure } from '../engines/failure.js';
import { convertImage } from '../engines/image.js';

export interface WorkerHandle {
  logger: Logger;
  close(): Promise<void>;
}

/**
 * A conversion worker: takes jobs from the BullMQ queue on Redis, reads the input from the object
 * store, converts it, stores the output and records the outcome in the conversion schema. Run as
 * many copies as needed; BullMQ hands each job to one of them.
 */
export async function startWorker(env: Record<string, string | undefined> = process.env): Promise<WorkerHandle> {
  const config = loadConfigOrExit(schema, env);
  const logger = createLogger('conversion-worker', config.LOG_LEVEL);
  const dataSource = new DataSource(serviceDataSourceOptions(dataSourceOptions(config.DATABASE_URL)));
  await dataSource.initialize();
  const jobs = new ConversionJobsRepository(dataSource);
  const nc = await connect({ servers: config.NATS_URL, name: `conversion-worker-${process.pid}`, maxReconnectAttempts: -1 });
  const files = await openFileStore(nc, CONVERSION_BUCKET, config.NATS_PREFIX);
  const redis = createRedis(config.REDIS_URL, 'conversion-worker', { forBullmq: true });
  redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis connection error'));

  const process_ = async (job: Job<ConversionJobData>): Promise<void> => {
    const record = await jobs.findById(job.data.id);
    if (!record) throw new UnrecoverableError(`job ${job.data.id} has no record`);
    await jobs.setState(record.id, 'active', 10);
    await job.updateProgress(10);
    const input = await files.getBlob(conversionInputKey(record.id));
    if (!input) {
      await jobs.fail(record.id, 'the uploaded file has expired or was removed');
      throw new UnrecoverableError('input missing');
    }
    await jobs.setState(record.id, 'active', 40);
    await job.updateProgress(40);
    try {
      const output = await convertImage(input, {
        filename: record.filename,
        to: record.target as ImageTarget,
        width: record.width,
        height: record.height,
      });
      await jobs.setState(record.id, 'active', 80);
      await files.putBlob(
        { name: conversionOutputKey(record.id) },
        new Uint8Array(output.data.buffer, output.data.byteOffset, output.data.byteLength),
      );
      await jobs.complete(record.id, {
        filename: output.filename,
        mediaType: output.mediaType,
        size: output.data.byteLength,
        width: output.width,
        height: output.height,
      });
      await files.delete(conversionInputKey(record.id)).catch(() => undefined);
      await job.updateProgress(100);
      logger.info({ jobId: record.id, to: record.target, size: output.data.byteLength }, 'conversion completed');
    } catch (error) {
      if (error instanceof ConversionFailure && error.final) {
        await jobs.fail(record.id, error.message);
        await files.delete(conversionInputKey(record.id)).catch(() => undefined);
        throw new UnrecoverableError(error.message);
      }
      throw error;
    }
  };

  const worker = new Worker<ConversionJobData>(CONVERSION_QUEUE, process_, {
    connection: redis,
    prefix: config.REDIS_PREFIX,
    concurrency: config.WORKER_CONCURRENCY,
  });
  worker.on('failed', (job, err) => {
    logger.warn({ jobId: job?.data.id, attempts: job?.attemptsMade, err: err.message }, 'conversion attempt failed');
    if (job && job.attemptsMade >= (job.opts.attempts ?? 1) && !(err instanceof UnrecoverableError)) {
      void jobs.fail(job.data.id, 'the conversion failed; please try again later').catch(() => undefined);
    }
  });
  worker.on('error', (err) => logger.error({ err: err.message }, 'worker error'));
  await worker.waitUntilReady();
  logger.info({ concurrency: config.WORKER_CONCURRENCY }, 'conversion worker ready');

  let probe: Server | undefined;
  if (config.HEALTH_PORT) {
    probe = createServer((req, res) => {
      if (req.url === '/live') return void res.writeHead(200).end('{"status":"up"}');
      if (req.url === '/ready') {
        const ok = worker.isRunning() && dataSource.isInitialized && !nc.isClosed() && redis.status === 'ready';
        return void res.writeHead(ok ? 200 : 503).end(JSON.stringify({ status: ok ? 'up' : 'down' }));
      }
      res.writeHead(404).end();
    }).listen(config.HEALTH_PORT);
  }

  announceReady({ service: 'conversion-worker' });
  return {
    logger,
    close: async () => {
      probe?.close();
      await worker.close();
      redis.disconnect();
      await nc.drain();
      await dataSource.destroy();
      logger.info('conversion worker stopped');
    },
  };
}
