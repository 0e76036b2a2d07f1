// The HTTP half of the conversion's floor (bench/lib/floor-conversion.mjs): node:http and busboy (the
// parser multer, hence the gateway, uses) take POST /convert's multipart upload (fields `to`, `width`,
// then `file`), the file's bytes go into Redis with one SET, a job naming them is added to a bare
// BullMQ queue, and the answer waits for the job's `completed` event (one QueueEvents of the process),
// then reads the result from Redis, deletes both keys and writes the file. No auth, no limits, no
// database, no validation: the architecture's cost alone. With HTTP=nest, a bare Nest app (Express,
// multer's FileInterceptor in memory) takes the upload instead. With INLINE set, the file's bytes travel in
// the job's data (base64) instead of a key of their own. REDIS_URL, PREFIX, QUEUE and PORT (0: any);
// tells its parent its port over IPC once listening.
import 'reflect-metadata';
import { Body, Controller, Module, Post, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FileInterceptor } from '@nestjs/platform-express';
import busboy from 'busboy';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const { REDIS_URL, PREFIX, QUEUE, INLINE, HTTP } = process.env;
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

/** Stores the file, queues its job, waits for its completion; answers the result's bytes. */
async function converted(fields, file) {
  const id = randomUUID();
  const input = `${PREFIX}:in:${id}`;
  const output = `${PREFIX}:out:${id}`;
  if (!INLINE) await redis.set(input, file.data);
  const finished = new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
  try {
    await queue.add(
      'convert',
      {
        ...(INLINE ? { data: file.data.toString('base64') } : { input }),
        output,
        filename: file.filename,
        to: fields.to,
        width: fields.width ? Number(fields.width) : null,
      },
      { jobId: id, removeOnComplete: { count: 1000 }, removeOnFail: { count: 1000 } },
    );
    await finished;
  } finally {
    waiting.delete(id);
  }
  const [[, result]] = await redis.multi().getBuffer(output).del(input, output).exec();
  return result;
}

/** node:http and busboy. */
function bareServer() {
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || !req.url.startsWith('/convert')) {
      res.writeHead(404).end();
      return;
    }
    parsed(req)
      .then(async ({ fields, file }) => {
        const result = await converted(fields, file);
        res.writeHead(200, { 'content-type': MEDIA[fields.to] ?? 'application/octet-stream', 'content-length': result.length });
        res.end(result);
      })
      .catch((error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error.message)));
  });
  return new Promise((resolve) =>
    server.listen(PORT, '127.0.0.1', () => resolve({ port: server.address().port, close: () => server.close() })),
  );
}

/**
 * A Nest app on Express, one controller route: multer (FileInterceptor, memory storage) parses the
 * upload, the handler writes the result through Express's response. No guards, pipes or middleware.
 */
async function nestServer() {
  class ConvertController {
    async convert(file, body, res) {
      const result = await converted(body, { filename: file.originalname, data: file.buffer });
      res
        .status(200)
        .set('content-type', MEDIA[body.to] ?? 'application/octet-stream')
        .send(result);
    }
  }
  Controller()(ConvertController);
  UploadedFile()(ConvertController.prototype, 'convert', 0);
  Body()(ConvertController.prototype, 'convert', 1);
  Res()(ConvertController.prototype, 'convert', 2);
  const descriptor = Object.getOwnPropertyDescriptor(ConvertController.prototype, 'convert');
  Post('convert')(ConvertController.prototype, 'convert', descriptor);
  UseInterceptors(FileInterceptor('file'))(ConvertController.prototype, 'convert', descriptor);
  class FloorConversionModule {}
  Module({ controllers: [ConvertController] })(FloorConversionModule);
  const app = await NestFactory.create(FloorConversionModule, { logger: ['error', 'warn'] });
  await app.listen(PORT, '127.0.0.1');
  return { port: new URL(await app.getUrl()).port, close: () => app.close() };
}

const server = HTTP === 'nest' ? await nestServer() : await bareServer();
process.send({ port: server.port });
process.on('disconnect', () => {
  void Promise.all([server.close(), events.close(), queue.close(), redis.quit()]).finally(() => process.exit(0));
});
