import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { AppError, prefixed, REQUEST_ID_HEADER, SUBJECTS } from '@tinkerdesk/contracts';
import { requestContext } from './context.js';
import { RpcClient } from './rpc-client.js';

// The real NATS on localhost, under a prefix of this run's own; the "service" is a plain subscription
// answering in the packet format of Nest's NATS transport.
const prefix = `t${randomBytes(4).toString('hex')}`;
const subject = SUBJECTS.identity.userMe;
let service: NatsConnection;
let rpc: RpcClient;
let silent = false;

beforeAll(async () => {
  service = await connect({ servers: 'nats://localhost:4222' });
  service.subscribe(prefixed(prefix, subject), {
    callback: (_error, msg) => {
      if (silent) return;
      const packet = msg.json<{ id: string; data: { userId: string } }>();
      const requestId = msg.headers?.get(REQUEST_ID_HEADER);
      const reply =
        packet.data.userId === 'missing'
          ? { id: packet.id, err: { code: 'NOT_FOUND', detail: 'no such user' }, isDisposed: true }
          : { id: packet.id, response: { email: `${packet.data.userId}@example.com`, requestId }, isDisposed: true };
      // Answers out of order, so each reply must find its own request.
      setTimeout(() => msg.respond(JSON.stringify(reply)), Math.floor(Math.random() * 20));
    },
  });
  await service.flush();
  rpc = await RpcClient.connect({ natsUrl: 'nats://localhost:4222', prefix, timeoutMs: 1000, name: 'rpc-client-test' });
});

afterAll(async () => {
  await rpc?.close();
  await service?.drain();
});

describe('RpcClient.send (replies on its own inbox)', () => {
  it('gives each of many parallel requests its own answer, with the request id in the headers', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `user${i}`);
    const answers = await requestContext.run({ requestId: 'req-rpc-client-test' }, () =>
      Promise.all(ids.map((userId) => rpc.send(subject, { userId }))),
    );
    expect(answers.map((a) => a.email)).toEqual(ids.map((id) => `${id}@example.com`));
    expect(new Set(answers.map((a) => (a as unknown as { requestId: string }).requestId))).toEqual(new Set(['req-rpc-client-test']));
  });

  it("turns the service's error payload into its AppError", async () => {
    await expect(rpc.send(subject, { userId: 'missing' })).rejects.toMatchObject({ code: 'NOT_FOUND', detail: 'no such user' });
  });

  it('answers UNAVAILABLE at once when no service listens on the subject', async () => {
    const started = performance.now();
    const error = await rpc.send(SUBJECTS.identity.userPublic, { id: '6f1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b40' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', detail: 'the identity service is not available' });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('answers UNAVAILABLE after the deadline when the service does not answer, and drops the late reply', async () => {
    silent = true;
    try {
      const started = performance.now();
      await expect(rpc.send(subject, { userId: 'late' }, 200)).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        detail: 'the identity service did not answer within 200 ms',
      });
      expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    } finally {
      silent = false;
    }
    await expect(rpc.send(subject, { userId: 'after' })).resolves.toMatchObject({ email: 'after@example.com' });
  });
});
