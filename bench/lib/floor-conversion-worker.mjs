// The worker half of the conversion's floor (bench/lib/floor-conversion.mjs): a bare BullMQ Worker
// (concurrency 1, the platform's lock and stall options left at BullMQ's defaults) that reads a job's
// input from Redis, runs the engine the bench's reference runs (the conversion service's
// `convertImage`, sharp with the service's options, for images; a warm `OfficeEngine` for documents),
// writes the result into Redis and completes. An input carried in the job's data (INLINE on the HTTP
// side) is decoded from it instead. No database, no NATS, no records, no limits.
// REDIS_URL, PREFIX, QUEUE; tells its parent once ready over IPC.
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { convertImage } from '../../apps/conversion/dist/engines/image.js';
import { OfficeEngine } from '../../apps/conversion/dist/engines/libreoffice.js';

const { REDIS_URL, PREFIX, QUEUE } = process.env;
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
// As the bench's reference: one soffice kept warm, driven through its UNO bridge.
const office = new OfficeEngine({ mode: 'warm', timeoutMs: 60_000, restartAfter: 1000 });

async function run(job) {
  const { input, data, output, filename, to, width } = job.data;
  const bytes = data === undefined ? await redis.getBuffer(input) : Buffer.from(data, 'base64');
  const result =
    to === 'pdf'
      ? await office.convert(bytes, { kind: 'document', from: 'docx', to: 'pdf' })
      : (await convertImage(bytes, { filename, to, width })).data;
  await redis.set(output, result);
}

const worker = new Worker(QUEUE, run, { connection: { url: REDIS_URL, maxRetriesPerRequest: null }, prefix: PREFIX, concurrency: 1 });
await worker.waitUntilReady();
process.send({ ready: true });
process.on('disconnect', () => {
  void Promise.all([worker.close(), office.close(), redis.quit()]).finally(() => process.exit(0));
});
