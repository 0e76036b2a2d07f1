import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, type CallHandler, type ExecutionContext, type INestMicroservice, Module, type NestInterceptor } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { AppError, REQUEST_ID_HEADER } from '@tinkerdesk/contracts';
import { IsInt, IsString, Max, MaxLength } from 'class-validator';
import { type Observable, of } from 'rxjs';
import { currentRequestId } from './context.js';
import { createLogger } from './logger.js';
import { PrefixedNatsServer } from './prefixed-nats-server.js';
import { RpcErrorFilter, rpcValidationPipe } from './rpc-server.js';

// Two services on the real NATS, each under a prefix of this run's own, with the same handlers, pipe and
// filter as bootstrapService gives every service. One answers through PrefixedNatsServer's lean reply; the
// other has a global interceptor, which makes every answer an RxJS stream, so it replies through Nest's
// own `send` as every service did before. The same request to both must get the same bytes back.

class EchoMessage {
  @IsString()
  @MaxLength(10)
  name!: string;

  @IsInt()
  @Max(100)
  count!: number;
}

const events: Array<{ name: string; requestId: string | undefined }> = [];

@Controller()
class TestController {
  @MessagePattern('t.echo')
  async echo(@Payload() input: EchoMessage): Promise<unknown> {
    await new Promise((resolve) => setImmediate(resolve));
    return { name: input.name, count: input.count, requestId: currentRequestId(), unicode: 'Café 🎨 \u2028' };
  }

  @MessagePattern('t.sync')
  sync(): unknown {
    return [1, 'two', null];
  }

  @MessagePattern('t.nothing')
  async nothing(): Promise<undefined> {
    return undefined;
  }

  @MessagePattern('t.missing')
  async missing(): Promise<never> {
    throw new AppError('NOT_FOUND', 'no such thing');
  }

  @MessagePattern('t.broken')
  async broken(): Promise<never> {
    throw new Error('a bug');
  }

  @MessagePattern('t.stream')
  stream(): Observable<unknown> {
    return of({ streamed: true });
  }

  @EventPattern('t.happened')
  happened(@Payload() input: { name: string }): void {
    events.push({ name: input.name, requestId: currentRequestId() });
  }
}

@Module({ controllers: [TestController] })
class TestModule {}

/** What makes every answer a stream (the services had one global interceptor before). */
class PassInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle();
  }
}

const logger = createLogger('prefixed-nats-server-test', 'silent');
const run = randomBytes(4).toString('hex');
const lean = `tl${run}`;
const nest = `tn${run}`;
const apps: INestMicroservice[] = [];
let nc: NatsConnection;

async function start(prefix: string, interceptor: boolean): Promise<void> {
  const strategy = new PrefixedNatsServer(prefix, { servers: 'nats://localhost:4222', queue: prefix });
  const app = await NestFactory.createMicroservice(TestModule, { strategy, logger: false });
  if (interceptor) app.useGlobalInterceptors(new PassInterceptor());
  app.useGlobalPipes(rpcValidationPipe());
  app.useGlobalFilters(new RpcErrorFilter(logger));
  await app.listen();
  await strategy.subscribed();
  apps.push(app);
}

/** The raw reply to a request packet as Nest's client writes it, under `prefix`. */
async function ask(prefix: string, pattern: string, data: unknown, id: string, requestId?: string): Promise<string> {
  const h = headers();
  if (requestId) h.set(REQUEST_ID_HEADER, requestId);
  const reply = await nc.request(`${prefix}.${pattern}`, JSON.stringify({ pattern: `${prefix}.${pattern}`, data, id }), {
    timeout: 5000,
    headers: h,
  });
  return reply.string();
}

/** The same request to both services: their replies' bytes. */
async function both(pattern: string, data: unknown, requestId?: string): Promise<[string, string]> {
  const id = randomUUID();
  return [await ask(lean, pattern, data, id, requestId), await ask(nest, pattern, data, id, requestId)];
}

beforeAll(async () => {
  nc = await connect({ servers: 'nats://localhost:4222' });
  await start(lean, false);
  await start(nest, true);
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await nc?.drain();
});

describe("PrefixedNatsServer's replies (lean for a handler's value, Nest's send otherwise)", () => {
  it("answers a handler's value with the same bytes as Nest's path, in the request's context", async () => {
    const [leanReply, nestReply] = await both('t.echo', { name: 'ada', count: 3, extra: 'dropped' }, 'req-lean-1');
    expect(leanReply).toBe(nestReply);
    const packet = JSON.parse(leanReply) as { response: Record<string, unknown>; isDisposed: boolean };
    expect(packet.isDisposed).toBe(true);
    expect(packet.response).toEqual({ name: 'ada', count: 3, requestId: 'req-lean-1', unicode: 'Café 🎨 \u2028' });
    expect(leanReply.startsWith('{"id":')).toBe(true);
  });

  it('gives a message without a request id one of its own', async () => {
    const reply = JSON.parse(await ask(lean, 't.echo', { name: 'bob', count: 1 }, randomUUID())) as { response: { requestId: string } };
    expect(reply.response.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a synchronous value, and no value, as Nest does', async () => {
    const [syncLean, syncNest] = await both('t.sync', {});
    expect(syncLean).toBe(syncNest);
    expect(JSON.parse(syncLean)).toMatchObject({ response: [1, 'two', null], isDisposed: true });
    const [noneLean, noneNest] = await both('t.nothing', {});
    expect(noneLean).toBe(noneNest);
    expect(JSON.parse(noneLean)).not.toHaveProperty('response');
  });

  it('refuses a bad message with the same VALIDATION_FAILED bytes', async () => {
    const [leanReply, nestReply] = await both('t.echo', { name: 'a name too long', count: 1000 });
    expect(leanReply).toBe(nestReply);
    expect(JSON.parse(leanReply)).toMatchObject({ err: { code: 'VALIDATION_FAILED' }, isDisposed: true });
    const [deepLean, deepNest] = await both('t.echo', { name: 'x\u0000', count: 1 });
    expect(deepLean).toBe(deepNest);
    expect(JSON.parse(deepLean)).toMatchObject({ err: { code: 'VALIDATION_FAILED' } });
  });

  it("answers a handler's AppError with the same bytes, and an unknown error as INTERNAL", async () => {
    const [leanReply, nestReply] = await both('t.missing', {});
    expect(leanReply).toBe(nestReply);
    expect(JSON.parse(leanReply)).toMatchObject({ err: { code: 'NOT_FOUND', detail: 'no such thing' }, isDisposed: true });
    const [brokenLean] = await both('t.broken', {});
    expect(JSON.parse(brokenLean)).toMatchObject({ err: { code: 'INTERNAL' }, isDisposed: true });
    expect(brokenLean).not.toContain('a bug');
  });

  it("answers a handler's Observable through Nest's send, with the same bytes", async () => {
    const [leanReply, nestReply] = await both('t.stream', {});
    expect(leanReply).toBe(nestReply);
    expect(JSON.parse(leanReply)).toMatchObject({ response: { streamed: true }, isDisposed: true });
  });

  it('handles an event in the context of its request id', async () => {
    const h = headers();
    h.set(REQUEST_ID_HEADER, 'req-event-1');
    nc.publish(`${lean}.t.happened`, JSON.stringify({ pattern: `${lean}.t.happened`, data: { name: 'ev' } }), { headers: h });
    await nc.flush();
    const deadline = Date.now() + 5000;
    while (!events.some((e) => e.name === 'ev') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events).toContainEqual({ name: 'ev', requestId: 'req-event-1' });
  });
});
