// The HTTP half of the architecture's floor (bench/lib/floor.mjs): a process that answers
// GET /v1/users/{id}/services/{sid}/products by asking the service half (floor-service.mjs) over NATS on
// SUBJECT, with nothing else on the way (no guards, pipes, interceptors, validation, middleware of its
// own). MODE says how:
//   - nest-express: a Nest app on its default adapter (Express), one controller route with @Param, the
//     request sent with Nest's ClientProxy (ClientsModule, Transport.NATS: ClientNats); answers what the
//     service answered (Nest writes it as JSON), a 404 NotFoundException when it answered null;
//   - nest-fastify: the same app on @nestjs/platform-fastify's adapter;
//   - nest-express-raw: the Nest app on Express, the request sent with the NATS client itself
//     (@nats-io/transport-node), the reply's JSON decoded and returned for Nest to write, as above;
//   - bare: node:http and the NATS client alone, the reply's bytes written as the body.
// NATS_URL, SUBJECT and PORT (0: any) as named; tells its parent its port over IPC once listening.
// Plain JavaScript: the decorators are applied as functions, as TypeScript would emit them.
import 'reflect-metadata';
import { connect } from '@nats-io/transport-node';
import { Controller, Get, Inject, Module, NotFoundException, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientsModule, Transport } from '@nestjs/microservices';
import { createServer } from 'node:http';
import { firstValueFrom } from 'rxjs';
import { NOT_FOUND } from './products-read.mjs';

const { MODE, NATS_URL, SUBJECT } = process.env;
const PORT = Number(process.env.PORT ?? 0);
// As floor-service.mjs: no async stack traces, no coalesced writes.
const natsOptions = { servers: NATS_URL, noAsyncTraces: true };
const CLIENT = 'FLOOR_SERVICE';
const ROUTE = ':id/services/:sid/products';

/** Applies a method decorator (and parameter decorators, by position) to `Class.prototype[method]`. */
function decorate(Class, method, methodDecorators, parameterDecorators = []) {
  parameterDecorators.forEach((decorator, index) => decorator(Class.prototype, method, index));
  const descriptor = Object.getOwnPropertyDescriptor(Class.prototype, method);
  for (const decorator of methodDecorators) decorator(Class.prototype, method, descriptor);
}

/** The Nest app of the nest-* modes: one controller, its one dependency injected by token. */
function nestModule(controller, provider) {
  Controller('v1/users')(controller);
  Inject(CLIENT)(controller, undefined, 0);
  decorate(controller, 'list', [Get(ROUTE)], [Param('id'), Param('sid')]);
  class FloorHttpModule {}
  Module(provider)(FloorHttpModule);
  return FloorHttpModule;
}

async function startNest(module, adapter) {
  const app = adapter
    ? await NestFactory.create(module, adapter, { logger: ['error', 'warn'] })
    : await NestFactory.create(module, { logger: ['error', 'warn'] });
  await app.listen(PORT, '127.0.0.1');
  return { port: new URL(await app.getUrl()).port, close: () => app.close() };
}

async function clientProxyApp() {
  class ProductsController {
    constructor(client) {
      this.client = client;
    }
    async list(userId, serviceId) {
      const answer = await firstValueFrom(this.client.send(SUBJECT, { userId, serviceId }));
      if (answer === null) throw new NotFoundException(NOT_FOUND);
      return answer;
    }
  }
  const module = nestModule(ProductsController, {
    imports: [ClientsModule.register([{ name: CLIENT, transport: Transport.NATS, options: natsOptions }])],
    controllers: [ProductsController],
  });
  let adapter;
  if (MODE === 'nest-fastify') {
    const { FastifyAdapter } = await import('@nestjs/platform-fastify');
    adapter = new FastifyAdapter();
  }
  return startNest(module, adapter);
}

async function rawNatsApp() {
  const nc = await connect(natsOptions);
  class ProductsController {
    constructor(natsConnection) {
      this.nc = natsConnection;
    }
    async list(userId, serviceId) {
      const reply = await this.nc.request(SUBJECT, JSON.stringify({ userId, serviceId }), { timeout: 5000 });
      const answer = reply.json();
      if (!answer.success) throw new NotFoundException(answer);
      return answer;
    }
  }
  const module = nestModule(ProductsController, { controllers: [ProductsController], providers: [{ provide: CLIENT, useValue: nc }] });
  const started = await startNest(module);
  return { port: started.port, close: () => started.close().finally(() => nc.close()) };
}

async function bareApp() {
  const nc = await connect(natsOptions);
  // The reply is the body's JSON; its 12th byte is the `t` of `{"success":true` (else `f`): the status.
  const SUCCESS_AT = '{"success":'.length;
  const server = createServer(async (req, res) => {
    try {
      const [, userId, serviceId] = /^\/v1\/users\/([^/]+)\/services\/([^/]+)\/products$/.exec(req.url ?? '') ?? [];
      const reply = await nc.request(SUBJECT, JSON.stringify({ userId, serviceId }), { timeout: 5000 });
      res.writeHead(reply.data[SUCCESS_AT] === 0x74 ? 200 : 404, { 'content-type': 'application/json' }).end(reply.data);
    } catch (error) {
      res.writeHead(503).end(String(error));
    }
  });
  await new Promise((resolve) => server.listen(PORT, '127.0.0.1', resolve));
  return { port: server.address().port, close: () => new Promise((resolve) => server.close(resolve)).finally(() => nc.close()) };
}

const apps = { 'nest-express': clientProxyApp, 'nest-fastify': clientProxyApp, 'nest-express-raw': rawNatsApp, bare: bareApp };
if (!apps[MODE]) throw new Error(`MODE must be one of ${Object.keys(apps).join(', ')}, not ${MODE}`);
const { port, close } = await apps[MODE]();
process.send?.({ port: Number(port) });
process.on('disconnect', () => void close());
