// The service half of the architecture's floor (bench/lib/floor.mjs): a process that answers the products
// read over NATS with the two statements side by side on a pg pool, as commerce does, and nothing else
// (no validation, no views of its own, no logging). MODE says how it listens on SUBJECT:
//   - nest: a Nest microservice (Transport.NATS: Nest's ServerNats, its packets and its pipeline) with
//     one @MessagePattern handler; answers the body, or null when the service is not the user's;
//   - nest-raw: a Nest application context whose one provider subscribes with the NATS client itself
//     (@nats-io/transport-node) and replies with the body's JSON (Nest's DI, none of its transport);
//   - bare: the NATS client and pg alone, replying the same.
// NATS_URL, DATABASE_URL and SUBJECT as named; tells its parent "ready" over IPC once subscribed.
// Plain JavaScript: the decorators are applied as functions, as TypeScript would emit them.
import 'reflect-metadata';
import { connect } from '@nats-io/transport-node';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Transport } from '@nestjs/microservices';
import pg from 'pg';
import { NOT_FOUND, productsSideBySide } from './products-read.mjs';

const { MODE, NATS_URL, DATABASE_URL, SUBJECT } = process.env;
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
// Every NATS connection of the floor, like the platform's, skips the client's async stack traces (an
// Error per request); none coalesces its writes (the platform's coalesceNatsWrites is its own code).
const natsOptions = { servers: NATS_URL, noAsyncTraces: true };
const notFound = JSON.stringify(NOT_FOUND);

/** The raw responder (nest-raw, bare): the body's JSON as the reply, `{"success":false,…}` when not found. */
async function subscribeRaw() {
  const nc = await connect(natsOptions);
  nc.subscribe(SUBJECT, {
    callback: (error, msg) => {
      if (error) return;
      const { userId, serviceId } = msg.json();
      productsSideBySide(pool, userId, serviceId).then(
        (answer) => msg.respond(answer ? JSON.stringify(answer) : notFound),
        (failure) => msg.respond(JSON.stringify({ success: false, error: 'INTERNAL', detail: String(failure) })),
      );
    },
  });
  await nc.flush();
  return nc;
}

let close;
if (MODE === 'nest') {
  class ProductsHandler {
    list({ userId, serviceId }) {
      return productsSideBySide(pool, userId, serviceId).then((answer) => answer ?? null);
    }
  }
  MessagePattern(SUBJECT)(ProductsHandler.prototype, 'list', Object.getOwnPropertyDescriptor(ProductsHandler.prototype, 'list'));
  class FloorServiceModule {}
  Module({ controllers: [ProductsHandler] })(FloorServiceModule);
  const app = await NestFactory.createMicroservice(FloorServiceModule, {
    transport: Transport.NATS,
    options: natsOptions,
    logger: ['error', 'warn'],
  });
  await app.listen();
  close = () => app.close();
} else if (MODE === 'nest-raw') {
  class RawResponder {
    async onModuleInit() {
      this.nc = await subscribeRaw();
    }
    onModuleDestroy() {
      return this.nc?.close();
    }
  }
  class FloorServiceModule {}
  Module({ providers: [RawResponder] })(FloorServiceModule);
  const app = await NestFactory.createApplicationContext(FloorServiceModule, { logger: ['error', 'warn'] });
  await app.init();
  close = () => app.close();
} else if (MODE === 'bare') {
  const nc = await subscribeRaw();
  close = () => nc.close();
} else {
  throw new Error(`MODE must be nest, nest-raw or bare, not ${MODE}`);
}
process.send?.('ready');
process.on('disconnect', () => {
  void close().finally(() => pool.end());
});
