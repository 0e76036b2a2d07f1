// The HTTP half of the conversion's floor (bench/lib/floor-conversion.mjs): node:http and busboy (the
// parser multer, hence the gateway, uses) take POST /convert's multipart upload (fields `to`, `width`,
// then `file`), the file's bytes go into Redis with one SET, a job naming them is added to a bare
// BullMQ queue, and the answer waits for the job's `completed` event (one QueueEvents of the process),
// then reads the result from Redis, deletes both keys and writes the file. No auth, no limits, no
// database, no validation: the architecture's cost alone. REDIS_URL, PREFIX, QUEUE and PORT (0: any);
// tells its parent its port over IPC once listening.
import busboy from 'busboy';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const { REDIS_URL, PREFIX, QUEUE } = process.env;
const PORT = Number(process.env.PORT ?? 0);
const MEDIA = { webp: 'image/webp', pdf: 'application/pdf' };

const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
const connection = { url: REDIS_URL, maxRetriesPerRequest: null };
const queue = new Queue(QUEUE, { connection, prefix: PREFIX });
const events = new QueueEvents(QUEUE, { connection, prefix: PREFIX });
await queue.waitUntilReady();
await events.waitUntilReady();

/** The waiters of the jobs in flight, by job id; one listener for all of them. */
const waiting = new Map();
events.on('completed', ({ jobId }) => waiting.get(jobId)?.resolve());
events.on('failed', ({ jobId, failedReason }) => waiting.get(jobId)?.reject(new Error(failedReason)));

/** The multipart body's fields and its one file. */
function parsed(req) {
  return new Promise((resolve, reject) => {
    const fields = {};
    let file;
    const parser = busboy({ headers: req.headers, limits: { files: 1 } });
    parser.on('field', (name, value) => (fields[name] = value));
    parser.on('file', (_name, stream, info) => {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => (file = { filename: info.filename, data: Buffer.concat(chunks) }));
    });
    parser.on('close', () => (file ? resolve({ fields, file }) : reject(new Error('no file'))));
    parser.on('error', reject);
    req.pipe(parser);
  });
}

async function convert(req, res) {
  const { fields, file } = await parsed(req);
  const id = randomUUID();
  const input = `${PREFIX}:in:${id}`;
  const output = `${PREFIX}:out:${id}`;
  await redis.set(input, file.data);
  const finished = new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
  try {
    await queue.add(
      'convert',
      { input, output, filename: file.filename, to: fields.to, width: fields.width ? Number(fields.width) : null },
      { jobId: id, removeOnComplete: { count: 1000 }, removeOnFail: { count: 1000 } },
    );
    await finished;
  } finally {
    waiting.delete(id);
  }
  const [[, result]] = await redis.multi().getBuffer(output).del(input, output).exec();
  res.writeHead(200, { 'content-type': MEDIA[fields.to] ?? 'application/octet-stream', 'content-length': result.length });
  res.end(result);
}

const server = createServer((req, res) => {
  if (req.method !== 'POST' || !req.url.startsWith('/convert')) {
    res.writeHead(404).end();
    return;
  }
  convert(req, res).catch((error) => {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error.message));
  });
});
server.listen(PORT, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('disconnect', () => {
  server.close();
  void Promise.all([events.close(), queue.close(), redis.quit()]).finally(() => process.exit(0));
});
